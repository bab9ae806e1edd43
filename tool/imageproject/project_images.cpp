#include "imageproject/project_images.h"

#include <unistd.h>

#include "base/atomic_file.h"
#include "base/source_error.h"
#include "base/suggest.h"
#include "elf/stage.h"
#include "project/project.h"
#include "render/render.h"

namespace gkebuild::imageproject {
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
  std::vector<fs::path> places;
  if (!options.workloads_build.empty()) {
    places.push_back(options.workloads_build);
  } else {
    places = {project.dir / "build"};
    std::error_code error;
    if (!fs::equivalent(project.dir, fs::current_path(), error)) places.push_back(fs::current_path() / "build");
  }
  for (const auto& place : places) {
    if (auto found = find_executable(place, image.workload)) return *found;
  }
  std::string searched;
  for (const auto& p : places) searched += (searched.empty() ? "" : ", ") + p.string();
  throw SourceError(image.where, "the binary of workload '" + image.workload + "' is not built (searched " +
                                     searched + "); build it first, e.g. `cmake --build build --target " +
                                     image.workload + "`, or pass --workloads-build DIR");
}

std::string rendered_dockerfile(const project::Project& project, const std::string& name) {
  render::RenderOptions options;
  options.targets = {"image/" + name};
  for (const auto& file : render::render_project(project, options)) {
    if (file.kind == render::OutputKind::Dockerfile) return file.text;
  }
  throw SourceError(SourceLocation{project.file.string()}, "no Dockerfile rendered for image '" + name + "'");
}

// The context folder: the Dockerfile, bin/ and lib/ as the template expects them.
fs::path stage(const project::Project& project, const project::Image& image, const ProjectImageOptions& options) {
  fs::path context = project.dir / ".gkebuild" / "context" / image.name;
  fs::create_directories(context / "bin");
  fs::create_directories(context / "lib");
  if (!image.workload.empty()) {
    fs::path binary = workload_binary(project, image, options);
    try {
      elf::stage_context({binary}, context);
    } catch (const elf::ElfError& e) {
      throw SourceError(image.where, std::string("cannot stage workload '") + image.workload + "': " + e.what());
    }
  }
  write_file_atomically(context / "Dockerfile", rendered_dockerfile(project, image.name));
  return context;
}

}  // namespace

std::vector<ProjectImage> build_project_images(const fs::path& project_file, const ProjectImageOptions& options,
                                               std::shared_ptr<oci::Layout> store) {
  project::Project project = project::load_project(project_file);
  std::vector<std::string> names = options.images.empty() ? project.image_names() : options.images;
  std::vector<ProjectImage> built;
  for (const auto& name : names) {
    const project::Image* image = project.find_image(name);
    if (image == nullptr) {
      throw SourceError(SourceLocation{project_file.string()},
                        "no image '" + name + "' in the project" + did_you_mean(name, project.image_names()));
    }
    build::BuildOptions build = options.build;
    build.context = stage(project, *image, options);
    build.dockerfile = build.context / "Dockerfile";
    render::RenderOptions defaults;
    built.push_back({name, render::image_reference(project, *image, defaults), build::build_image(build, store)});
  }
  return built;
}

}  // namespace gkebuild::imageproject
