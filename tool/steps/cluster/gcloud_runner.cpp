#include "tool/steps/cluster/gcloud_runner.h"

#include "base/error.h"
#include "base/untrusted_text.h"

namespace gkebuild::cluster {

GcloudResult run_gcloud(const Argv& args) {
  std::vector<std::string> argv{"gcloud"};
  argv.insert(argv.end(), args.begin(), args.end());
  const auto ran = run_child(argv);
  if (!ran)
    throw Error(ErrorKind::kBadInput,
                "gcloud is not on PATH: install the Google Cloud CLI (Debian package google-cloud-cli)");
  return std::move(*ran);
}

std::string gcloud_message(const GcloudResult& result) {
  std::string text = result.err;
  if (const auto footer = text.find("\nTo search the help text"); footer != std::string::npos) text.erase(footer);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  // gcloud's own words, as they came: escaped, and any URL in them without credentials.
  return text.empty() ? "gcloud exited with status " + std::to_string(result.exit_code) : untrusted_text(text);
}

}  // namespace gkebuild::cluster
