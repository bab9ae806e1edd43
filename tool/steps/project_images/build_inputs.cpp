#include "tool/steps/project_images/build_inputs.h"

#include "base/printable.h"
#include "base/source_error.h"
#include "base/suggest.h"
#include "tool/steps/render/dockerfile_template.h"

namespace gkebuild::project_images {
namespace fs = std::filesystem;

std::vector<const project::Image*> chosen_images(const project::Project& project, const std::vector<std::string>& asked) {
  const std::vector<std::string> names = asked.empty() ? project.image_names() : asked;
  std::vector<const project::Image*> images;
  for (const auto& name : names) {
    const project::Image* image = project.find_image(name);
    if (image == nullptr)
      throw SourceError(SourceLocation{project.file.string()},
                        "no image " + in_quotes(name) + " in the project" + did_you_mean(name, project.image_names()));
    images.push_back(image);
  }
  return images;
}

std::vector<fs::path> workload_places(const project::Project& project, const fs::path& workloads_build,
                                      const fs::path& current) {
  if (!workloads_build.empty()) return {workloads_build};
  std::vector<fs::path> places{project.dir / "build"};
  std::error_code error;
  if (!fs::equivalent(project.dir, current, error)) places.push_back(current / "build");
  return places;
}

std::optional<fs::path> workload_source(const project::Project& project, const project::Image& image) {
  std::error_code error;
  if (!image.source.empty()) return project.dir / image.source;
  if (fs::is_regular_file(project.dir / "CMakeLists.txt", error)) return project.dir;
  return std::nullopt;
}

void set_build_context(const project::Project& project, const project::Image& image, const fs::path& staged,
                       build::BuildOptions& build) {
  if (image.dockerfile.empty()) {
    build.context = staged;
    build.dockerfile = staged / "Dockerfile";
    return;
  }
  build.context = image.context.empty() ? project.dir : project.dir / image.context;
  std::error_code error;
  if (!fs::is_directory(build.context, error))
    throw SourceError(image.where, "image '" + image.name + "': build context " + build.context.string() +
                                       " is not a folder");
  build.dockerfile = render::dockerfile_is_template(image) ? staged / "Dockerfile"
                                                            : render::user_dockerfile(project, image);
  const auto gkebuild_folder = fs::relative(project.dir / ".gkebuild", build.context, error);
  if (!error && !gkebuild_folder.empty() && *gkebuild_folder.begin() != "..")
    build.ignore_always = gkebuild_folder.generic_string() + "\n";
  if (!image.workload.empty()) build.named_contexts["workload"] = staged;
}

}  // namespace gkebuild::project_images
