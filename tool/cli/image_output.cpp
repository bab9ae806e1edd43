#include "tool/cli/image_output.h"

#include <iostream>

#include "base/printable.h"
#include "base/source_error.h"
#include "tool/cli/registry_flags.h"

namespace gkebuild::cli {
namespace fs = std::filesystem;

namespace {

[[noreturn]] void usage(const std::string& message) {
  throw SourceError(SourceLocation{"gkebuild image"}, message);
}

void set_destination(Output& out, const std::string& value, bool& given) {
  if (given) usage("give one --output destination, oci:DIR or docker-archive:FILE");
  given = true;
  if (value.starts_with("oci:")) {
    out.layout = value.substr(4);
    if (out.layout.empty()) usage("--output oci: needs a folder");
  } else {
    out.archive = value.substr(15);
    if (out.archive.empty()) usage("--output docker-archive: needs a file");
  }
}

}  // namespace

Output parse_output(const std::vector<std::string>& values, bool push, const fs::path& default_layout) {
  Output out{default_layout, "", "text"};
  bool destination = false;
  bool format = false;
  for (const auto& value : values) {
    if (value.starts_with("oci:") || value.starts_with("docker-archive:")) {
      set_destination(out, value, destination);
    } else if (value == "text" || value == "json") {
      if (format) usage("give one --output format, text or json");
      if (!push) usage("--output " + value + " is the format of what --push prints; add --push");
      out.format = value;
      format = true;
    } else {
      usage("--output must be oci:DIR, docker-archive:FILE, text or json, got " + in_quotes(value));
    }
  }
  if (push && !out.archive.empty()) usage("--push sends the image to a registry; drop docker-archive:");
  return out;
}

void print_pushed(const std::vector<std::pair<std::string, registry::PushResult>>& pushed, const Output& output) {
  if (output.format == "text") {
    for (const auto& [name, result] : pushed) std::cout << result.reference << "\n";
    return;
  }
  nlohmann::json results = nlohmann::json::array();
  for (const auto& [name, result] : pushed) {
    nlohmann::json entry = push_result_json(result);
    if (!name.empty()) entry["image"] = name;
    results.push_back(entry);
  }
  std::cout << results.dump(2) << "\n";
}

}  // namespace gkebuild::cli
