#include "tool/steps/project_images/project_images.h"

#include <unistd.h>

#include <map>

#include "base/confined_path.h"
#include "base/atomic_file.h"
#include "base/printable.h"
#include "base/source_error.h"
#include "base/suggest.h"
#include "images/dockerfile_build/build_secrets.h"
#include "images/elf/stage.h"
#include "images/image/layout_sink.h"
#include "images/dockerfile/dockerfile_error.h"
#include "tool/steps/project_images/build_inputs.h"
#include "tool/steps/render/dockerfile_template.h"
#include "tool/steps/render/parse_back.h"
#include "tool/steps/render/shipped_templates.h"
#include "tool/steps/render/plan.h"
#include "tool/steps/render/render.h"
#include "tool/steps/workload_images/cmake_target.h"
#include "tool/steps/workload_images/cuda_architectures.h"
#include "tool/steps/workload_images/device_check.h"

namespace gkebuild::project_images {
namespace fs = std::filesystem;

namespace {

std::optional<fs::path> find_executable(const fs::path& dir, const std::string& name) {
  std::error_code error;
  if (!fs::is_directory(dir, error)) return std::nullopt;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, error);
  for (; !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    if (it->path().filename() == name && it->is_regular_file(error) && ::access(it->path().c_str(), X_OK) == 0) {
      return it->path();
    }
  }
  return std::nullopt;
}

fs::path workload_binary(const project::Project& project, const project::Image& image,
                         const ProjectImageOptions& options) {
  const std::vector<fs::path> places = workload_places(project, options.workloads_build, fs::current_path());
  for (const auto& place : places) {
    if (auto found = find_executable(place, image.workload)) return *found;
  }
  std::string searched;
  for (const auto& p : places) searched += (searched.empty() ? "" : ", ") + p.string();
  throw SourceError(image.where, "the binary of workload " + in_quotes(image.workload) + " is not built (searched " +
                                     searched + "); build it first, e.g. `cmake --build build --target " +
                                     image.workload + "`, or pass --workloads-build DIR; or let gkebuild build "
                                     "it: a CMakeLists.txt beside gkebuild.yaml (or `source: DIR` in the image) "
                                     "with a target of that name");
}

// What gkebuild built the target with, for the message when the device code falls short.
struct WorkloadBuild {
  fs::path binary;
  std::string cuda_architectures;  // empty: built elsewhere (prebuilt)
};

WorkloadBuild build_workload(const project::Project& project, const project::Image& image,
                             const ProjectImageOptions& options) {
  const auto source = options.workloads_build.empty() ? workload_source(project, image) : std::nullopt;
  if (!source) return {workload_binary(project, image, options), ""};
  workload_images::TargetBuild request;
  request.source = *source;
  request.build = confined_folder(project.dir, fs::path(".gkebuild") / "build" / image.name);
  request.target = image.workload;
  auto targets = workload_images::image_targets(project, image);
  if (options.run) {
    const auto run = workload_images::run_targets(project, *options.run);
    targets.insert(targets.end(), run.begin(), run.end());
  }
  request.cuda_architectures = workload_images::cmake_cuda_architectures(targets);
  request.note = options.build.progress;
  try {
    return {workload_images::build_cmake_target(request), request.cuda_architectures};
  } catch (const Error& e) {
    throw SourceError(image.where, "image '" + image.name + "': " + e.what());
  }
}

// Refuses an image whose staged device code cannot run on an accelerator its experiments use.
void check_device_code(const project::Project& project, const project::Image& image, const fs::path& context,
                       const WorkloadBuild& built, const ProjectImageOptions& options) {
  const auto findings = workload_images::device_code_findings(
      image.name,
      options.run ? workload_images::run_targets(project, *options.run) : workload_images::image_targets(project, image),
      workload_images::staged_device_code(context));
  if (findings.empty()) return;
  std::string message;
  for (const auto& finding : findings) message += (message.empty() ? "" : "\n") + finding.message;
  message += built.cuda_architectures.empty()
                 ? "\nRebuild the workload for these accelerators; gkebuild builds it for them itself from a "
                   "CMakeLists.txt in the project folder (or `source: DIR`) when no --workloads-build is given."
                 : "\ngkebuild passed CMAKE_CUDA_ARCHITECTURES=" + built.cuda_architectures +
                       "; the project sets its own (CMAKE_CUDA_ARCHITECTURES or the target's CUDA_ARCHITECTURES): "
                       "add the missing architectures there, or remove the setting.";
  throw SourceError(findings.front().where, message);
}

// The staged folder: the workload's binary in bin/ and the libraries it needs in lib/, and
// the rendered Dockerfile of a template.
fs::path stage(const project::Project& project, const project::Image& image, const std::string& reference,
               const ProjectImageOptions& options) {
  const fs::path context = confined_folder(project.dir, fs::path(".gkebuild") / "context" / image.name);
  for (const char* sub : {"bin", "lib"}) confined_folder(context, sub);
  if (!image.workload.empty()) {
    const WorkloadBuild built = build_workload(project, image, options);
    const fs::path& binary = built.binary;
    try {
      elf::stage_context({binary}, context);
    } catch (const elf::ElfError& e) {
      throw SourceError(image.where, std::string("cannot stage workload '") + image.workload + "': " + e.what());
    }
    try {
      check_device_code(project, image, context, built, options);
    } catch (const elf::ElfError& e) {
      throw SourceError(image.where, "image '" + image.name + "': cannot read its device code: " + e.what());
    }
  }
  if (render::dockerfile_is_template(image))
    write_file_atomically(context / "Dockerfile", render::render_dockerfile(project, image, reference));
  return context;
}

// A Dockerfile error in a rendered `dockerfile: *.j2`, pointed at the template line that gave
// the rendered line when exactly one can have; else at the rendered copy, naming the template.
[[noreturn]] void rethrow_at_template(const project::Project& project, const project::Image& image,
                                      const std::string& rendered, const dockerfile::DockerfileError& error) {
  const std::string source = render::template_source(project.dir, image.dockerfile).value_or("");
  const std::string rendered_line(line_of(rendered, error.line()));
  const int line = source.empty() || error.line() == 0 ? 0 : render::locate_template_line(source, rendered_line);
  const std::string shown = fs::exists(project.dir / "templates" / image.dockerfile)
                                ? (fs::path("templates") / image.dockerfile).string()
                                : image.dockerfile;
  if (line == 0)
    throw dockerfile::DockerfileError(error.file(), error.line(), error.column(),
                                      error.message() + " (rendered from " + shown + ")", rendered, error.kind());
  throw dockerfile::DockerfileError(shown, line, 0,
                                    error.message() + "\n  rendered (line " + std::to_string(error.line()) +
                                        " of " + error.file() + "): " + rendered_line,
                                    source, error.kind());
}

// The values of the image's `secrets:` that --secret did not give already. A file in the
// project folder is read as the project says; a variable of this environment only with the
// user's consent, which is a --secret for its id on the command line (which then gives the
// value): the project file may name what it expects, not take what it likes.
std::map<std::string, std::string> image_secrets(const project::Project& project, const project::Image& image,
                                                 const build::BuildOptions& given) {
  std::map<std::string, std::string> values;
  for (const auto& secret : image.secrets) {
    if (given.secrets.count(secret.id)) continue;
    if (!secret.env.empty())
      throw SourceError(secret.where, "image '" + image.name + "'.secrets: '" + secret.id + "' comes from the variable " +
                                          secret.env + ", which gkebuild reads only when the command line names it; "
                                          "add --secret id=" + secret.id + ",env=" + secret.env);
    try {
      values[secret.id] = build::read_secret({secret.id, secret.src, secret.env}, project.dir);
    } catch (const Error& e) {
      throw SourceError(secret.where, "image '" + image.name + "'.secrets: " + e.what());
    }
  }
  return values;
}

}  // namespace

void check_image_secrets(const project::Project& project, const std::vector<std::string>& names,
                         const build::BuildOptions& given) {
  for (const auto& name : names)
    if (const project::Image* image = project.find_image(name)) image_secrets(project, *image, given);
}

std::vector<ProjectImage> build_project_images(const project::Project& project, const ProjectImageOptions& options,
                                               std::shared_ptr<oci::Layout> store) {
  const std::vector<const project::Image*> images = chosen_images(project, options.images);
  // Every image's secrets are read before the first is built: a missing one stops nothing halfway.
  std::map<std::string, std::map<std::string, std::string>> secrets;
  for (const project::Image* image : images) secrets[image->name] = image_secrets(project, *image, options.build);
  std::vector<ProjectImage> built;
  for (const project::Image* chosen : images) {
    const project::Image& image = *chosen;
    const std::string& name = image.name;
    const std::string reference = render::default_image_reference(project, image);
    build::BuildOptions build = options.build;
    for (auto& [id, value] : secrets[name]) build.secrets.try_emplace(id, std::move(value));  // --secret wins
    set_build_context(project, image, stage(project, image, reference, options), build);
    build::BuildResult result;
    try {
      result = build::build_image(build, store);
    } catch (const dockerfile::DockerfileError& e) {
      if (image.dockerfile.empty() || !render::dockerfile_is_template(image)) throw;
      rethrow_at_template(project, image, read_file(build.dockerfile), e);
    }
    const oci::Descriptor manifest = image::write_to_layout(*store, result.image);
    store->tag(reference, manifest);
    built.push_back({name, reference, std::move(result), manifest});
  }
  return built;
}

}  // namespace gkebuild::project_images
