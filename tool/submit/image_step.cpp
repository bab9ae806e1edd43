#include "submit/image_step.h"

#include <memory>

#include "base/error.h"
#include "base/printable.h"
#include "base/source_error.h"
#include "imagerun/run_step.h"
#include "publish/pinned_references.h"
#include "publish/publish.h"
#include "publish/registry_pull.h"
#include "render/plan.h"

namespace gkebuild::submit {
namespace {

bool pinned(const std::string& reference) { return reference.find("@sha256:") != std::string::npos; }

// Builds the image into the project's layout, pushes and pins it; its digest reference.
std::string publish_one(const project::Project& project, const std::string& image, const ImageStepOptions& options) {
  registry::PushOptions push;
  push.session.insecure_registries = options.insecure_registries;
  push.session.ca_file = options.ca_file;
  auto store = std::make_shared<oci::Layout>(oci::Layout::open_or_create(project.dir / ".gkebuild" / "oci"));
  imageproject::ProjectImageOptions build;
  build.images = {image};
  build.workloads_build = options.workloads_build;
  build.run = options.run;
  build.build.pull = publish::registry_pull(store, push.session);
  build.build.run = imagerun::run_step(imagerun::run_cache_beside(store->root()));
  const auto built = imageproject::build_project_images(project, build, store);
  return publish::publish_images(project, *store, built, push).front().reference;
}

}  // namespace

std::map<std::string, std::string> image_references(const project::Project& project,
                                                    const std::vector<std::string>& images,
                                                    const ImageStepOptions& options) {
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
      out[image] = publish_one(project, image, options);
      options.note("image " + image + ": " + out[image]);
    }
  }
  return out;
}

}  // namespace gkebuild::submit
