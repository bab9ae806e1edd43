// `gkebuild push oci:DIR[:REF] HOST[:PORT]/REPO[:TAG]...`: pushes an image from
// an OCI layout and prints where it landed, as `registry/repo@sha256:…`.
#include <unistd.h>

#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli/command.h"
#include "oci/layout.h"
#include "remote/progress.h"
#include "remote/push.h"
#include "support/exit_codes.h"
#include "transport/errors.h"

namespace gkebuild::cli {
namespace {

using registry::ErrorKind;
using registry::RegistryError;

struct PushFlags {
  std::string source;
  std::vector<std::string> destinations;
  std::vector<std::string> tags;
  std::string output = "text";
  std::string format;
  std::vector<std::string> insecure;
  std::string ca_file;
  int jobs = 4;
  bool quiet = false;
  bool verbose = false;
};

struct Source {
  std::string dir;
  std::string tag;
};

// "oci:DIR[:REF]" as skopeo reads it: DIR ends at the first ':', and REF is
// the layout's name for the image (gkebuild image writes NAME:TAG there).
Source parse_source(const std::string& text) {
  if (!text.starts_with("oci:") || text.size() == 4)
    throw RegistryError(ErrorKind::kBadInput, "source \"" + text + "\" must be oci:DIR[:REF]");
  std::string rest = text.substr(4);
  auto colon = rest.find(':');
  if (colon == std::string::npos) return {rest, "latest"};
  if (colon == 0 || colon + 1 == rest.size())
    throw RegistryError(ErrorKind::kBadInput, "source \"" + text + "\" must be oci:DIR[:REF]");
  return {rest.substr(0, colon), rest.substr(colon + 1)};
}

const char* outcome_name(registry::BlobOutcome outcome) {
  switch (outcome) {
    case registry::BlobOutcome::kPresent: return "present";
    case registry::BlobOutcome::kMounted: return "mounted";
    case registry::BlobOutcome::kUploaded: return "uploaded";
  }
  return "";
}

nlohmann::json to_json(const registry::PushResult& r) {
  nlohmann::json blobs = nlohmann::json::array();
  for (const auto& b : r.blobs)
    blobs.push_back({{"digest", b.digest}, {"mediaType", b.media_type}, {"size", b.size},
                     {"outcome", outcome_name(b.outcome)}, {"bytesSent", b.bytes_sent}});
  return {{"reference", r.reference}, {"digest", r.digest}, {"mediaType", r.media_type},
          {"size", r.size}, {"tags", r.tags}, {"bytesSent", r.bytes_sent()}, {"blobs", blobs}};
}

registry::PushOptions options_from(const PushFlags& flags) {
  registry::PushOptions options;
  options.jobs = flags.jobs;
  options.session.insecure_registries = flags.insecure;
  options.session.ca_file = flags.ca_file;
  if (flags.verbose) options.session.log = [](const std::string& line) { std::cerr << "gkebuild: " << line << "\n"; };
  if (!flags.format.empty()) {
    options.format = registry::parse_manifest_format(flags.format);
    if (!options.format)
      throw RegistryError(ErrorKind::kBadInput, "--format must be oci or docker, not \"" + flags.format + "\"");
  }
  return options;
}

// Destinations naming one repository share one push: blobs once, several tags.
std::map<std::string, std::vector<registry::Reference>> group(const PushFlags& flags) {
  std::map<std::string, std::vector<registry::Reference>> groups;
  for (const auto& text : flags.destinations) {
    auto ref = registry::parse_reference(text);
    if (!ref.digest.empty())
      throw RegistryError(ErrorKind::kBadInput, "destination \"" + text + "\" must not name a digest");
    groups[ref.name()].push_back(ref);
  }
  return groups;
}

int run(const PushFlags& flags) {
  Source source = parse_source(flags.source);
  auto groups = group(flags);
  auto layout = oci::Layout::open(source.dir);
  auto base_options = options_from(flags);
  nlohmann::json results = nlohmann::json::array();
  for (auto& [name, refs] : groups) {
    auto options = base_options;
    for (size_t i = 1; i < refs.size(); ++i)
      if (!refs[i].tag.empty()) options.extra_tags.push_back(refs[i].tag);
    for (const auto& tag : flags.tags) options.extra_tags.push_back(tag);
    // Like docker push: a destination without a tag means "latest".
    if (refs.front().tag.empty() && options.extra_tags.empty()) refs.front().tag = "latest";
    std::optional<registry::ProgressDisplay> progress;
    if (!flags.quiet && flags.output == "text" && ::isatty(STDERR_FILENO)) {
      progress.emplace(std::cerr);
      options.on_progress = [&progress](const registry::BlobProgress& p) { progress->update(p); };
    }
    auto result = registry::push_image(layout, source.tag, refs.front(), options);
    if (progress) progress->finish();
    if (flags.output == "json")
      results.push_back(to_json(result));
    else
      std::cout << result.reference << "\n";
  }
  if (flags.output == "json") std::cout << results.dump(2) << "\n";
  return kExitSuccess;
}

void setup(CLI::App& app, Action& action) {
  auto flags = std::make_shared<PushFlags>();
  auto* command = app.add_subcommand("push", "Push an image from an OCI layout to a registry");
  command->add_option("source", flags->source, "oci:DIR[:REF], REF as the layout names the image (default latest)")->required();
  command->add_option("destination", flags->destinations, "HOST[:PORT]/REPO[:TAG], one or more")->required();
  command->add_option("-t,--tag", flags->tags, "Another tag to push, besides the destinations' own");
  command->add_option("-o,--output", flags->output, "text (the digest reference) or json")
      ->check(CLI::IsMember({"text", "json"}));
  command->add_option("--format", flags->format, "Manifest format: oci or docker (default: as built)");
  command->add_option("--insecure-registry", flags->insecure,
                      "HOST:PORT that may use plain HTTP or unverified TLS (loopback always may)");
  command->add_option("--ca-file", flags->ca_file, "PEM file of CAs to verify the registry with")
      ->check(CLI::ExistingFile);
  command->add_option("-j,--jobs", flags->jobs, "Blobs in flight at once")->check(CLI::Range(1, 64));
  command->add_flag("-q,--quiet", flags->quiet, "No progress display");
  command->add_flag("-v,--verbose", flags->verbose, "Log each request (never credentials) to stderr");
  command->callback([flags, &action] {
    action = [flags] {
      try {
        return run(*flags);
      } catch (const RegistryError& e) {
        std::cerr << "gkebuild push: error: " << e.what() << "\n";
        return e.kind() == ErrorKind::kBadInput ? kExitUsage : kExitFailure;
      }
    };
  });
}

const CommandRegistration registration(30, setup);

}  // namespace
}  // namespace gkebuild::cli
