// `gkebuild push oci:DIR[:REF] HOST[:PORT]/REPO[:TAG]...`: pushes an image from
// an OCI layout and prints where it landed, as `registry/repo@sha256:…`.
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "base/exit_codes.h"
#include "images/oci/layout.h"
#include "images/oci/machine_store.h"
#include "registry/remote/push.h"
#include "registry/transport/errors.h"
#include "tool/cli/command.h"
#include "tool/cli/output_flags.h"
#include "tool/cli/registry_flags.h"

namespace gkebuild::cli {
namespace {

using registry::ErrorKind;
using registry::RegistryError;

struct PushFlags {
  std::string source;
  std::vector<std::string> destinations;
  std::vector<std::string> tags;
  OutputFlags output{"text"};
  RegistryFlags registry;
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
  auto layout = oci::Layout::open(source.dir, oci::machine_blob_home(false));  // a project's layout keeps its blobs there
  auto base_options = push_options(flags.registry);
  nlohmann::json results = nlohmann::json::array();
  for (auto& [name, refs] : groups) {
    auto options = base_options;
    for (size_t i = 1; i < refs.size(); ++i)
      if (!refs[i].tag.empty()) options.extra_tags.push_back(refs[i].tag);
    for (const auto& tag : flags.tags) options.extra_tags.push_back(tag);
    // Like docker push: a destination without a tag means "latest".
    if (refs.front().tag.empty() && options.extra_tags.empty()) refs.front().tag = "latest";
    PushProgress progress(flags.output.quiet, flags.output.format);
    progress.attach(options);
    auto result = registry::push_image(layout, source.tag, refs.front(), options);
    progress.finish();
    if (flags.output.format == "json")
      results.push_back(push_result_json(result));
    else
      std::cout << result.reference << "\n";
  }
  if (flags.output.format == "json") std::cout << results.dump(2) << "\n";
  return kExitSuccess;
}

void setup(CLI::App& app, Action& action) {
  auto flags = std::make_shared<PushFlags>();
  auto* command = app.add_subcommand("push", "Push an image from an OCI layout to a registry");
  command->add_option("source", flags->source, "oci:DIR[:REF], REF as the layout names the image (default latest)")->required();
  command->add_option("destination", flags->destinations, "HOST[:PORT]/REPO[:TAG], one or more")->required();
  command->add_option("-t,--tag", flags->tags, "Another tag to push, besides the destinations' own");
  add_output_flags(*command, flags->output, {"text", "json"}, "text (the digest reference) or json", true);
  add_registry_flags(*command, flags->registry);
  command->callback([flags, &action] {
    action = [flags] { return run(*flags); };
  });
}

const CommandRegistration registration(30, "push", setup);

}  // namespace
}  // namespace gkebuild::cli
