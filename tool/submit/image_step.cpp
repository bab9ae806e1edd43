#include "tool/submit/image_step.h"

#include <memory>

#include "base/confined_path.h"
#include "base/error.h"
#include "base/printable.h"
#include "base/source_error.h"
#include "images/oci/machine_store.h"
#include "registry/remote/pull.h"
#include "tool/steps/publish/pinned_references.h"
#include "tool/steps/publish/publish.h"
#include "tool/steps/publish/registry_pull.h"
#include "tool/steps/render/plan.h"
#include "tool/steps/run_step/run_step.h"

namespace gkebuild::submit {
namespace {

// The project's OCI layout, .gkebuild/oci, never reached through a planted symlink.
std::filesystem::path project_layout(const project::Project& project) {
  return confined_folder(project.dir, std::filesystem::path(".gkebuild") / "oci");
}

bool pinned(const std::string& reference) { return reference.find("@sha256:") != std::string::npos; }

// Builds the image into the project's layout, pushes and pins it; its digest reference, and
// its config's Env into `env`.
std::string publish_one(const project::Project& project, const std::string& image, const ImageStepOptions& options,
                        ImageEnv* env) {
  registry::PushOptions push;
  push.session = options.session;
  auto store = std::make_shared<oci::Layout>(oci::Layout::open_or_create(project_layout(project), oci::machine_blob_home(true)));
  project_images::ProjectImageOptions build;
  build.images = {image};
  build.workloads_build = options.workloads_build;
  build.run = options.run;
  build.build.pull = publish::registry_pull(store, push.session);
  build.build.secrets = options.build_secrets;
  build.build.run = run_step::run_step(store->root());
  const auto built = project_images::build_project_images(project, build, store);
  if (env) (*env)[image] = built.front().result.image.config().config.env;
  return publish::publish_images(project, *store, built, push).front().reference;
}

}  // namespace

std::optional<std::vector<std::string>> pushed_image_env(const project::Project& project, const std::string& reference,
                                                         const ImageStepOptions& options) {
  registry::PullOptions pull;
  pull.session = options.session;
  pull.fetch_layers = false;
  try {
    auto store = oci::Layout::open_or_create(project_layout(project), oci::machine_blob_home(true));
    return registry::pull_image(registry::parse_reference(reference), store, pull).config.config.env;
  } catch (const std::exception& e) {
    if (options.note)
      options.note("image " + reference + ": cannot read its config (" + e.what() +
                   "); the Jobs' PATH and LD_LIBRARY_PATH are gkebuild's defaults, not the image's");
    return std::nullopt;
  }
}

std::map<std::string, std::string> image_references(const project::Project& project,
                                                    const std::vector<std::string>& images,
                                                    const ImageStepOptions& options, ImageEnv* env) {
  for (const auto& [name, reference] : options.given)
    if (!project.find_image(name))
      throw Error(ErrorKind::kBadInput, "no image " + in_quotes(name) + " in " + project.file.string() + " (given as " + name +
                                            "=" + reference + ")");
  std::map<std::string, std::string> pins;
  if (options.no_build || options.dry_run) pins = publish::pinned_references(project, options.note);
  std::map<std::string, std::string> out;
  for (const auto& image : images) {
    if (auto given = options.given.find(image); given != options.given.end()) {
      if (!pinned(given->second) && !options.dry_run)
        throw Error(ErrorKind::kBadInput, image + "=" + given->second +
                                              ": a submitted image must be pinned by digest (REPO@sha256:…), so "
                                              "every pod runs exactly what was pushed");
      out[image] = given->second;
    } else if (options.no_build) {
      auto pin = pins.find(image);
      if (pin == pins.end())
        throw SourceError({project.file.string()}, "image '" + image + "' was never pushed: run `gkebuild image " +
                                                       image + " --push` first, or submit without --no-build");
      out[image] = pin->second;
    } else if (options.dry_run && pins.count(image)) {
      out[image] = pins[image];
      options.note("image " + image + ": not built or pushed (dry run); the manifests name the last push, " +
                   out[image]);
    } else if (options.dry_run) {
      out[image] = render::default_image_reference(project, *project.find_image(image));
      options.note("image " + image + ": not built or pushed (dry run); the manifests name " + out[image] +
                   ", a real submit builds, pushes and names the pushed digest");
    } else {
      options.note("image " + image + ": building and pushing to " + project.registry);
      out[image] = publish_one(project, image, options, env);
      options.note("image " + image + ": " + out[image]);
      continue;
    }
    if (env && pinned(out[image]))
      if (auto found = pushed_image_env(project, out[image], options)) (*env)[image] = std::move(*found);
  }
  return out;
}

}  // namespace gkebuild::submit
