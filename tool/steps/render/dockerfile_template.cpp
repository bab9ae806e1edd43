#include "tool/steps/render/dockerfile_template.h"

#include "base/atomic_file.h"
#include "base/source_error.h"
#include "tool/steps/render/shipped_templates.h"

namespace gkebuild::render {

bool dockerfile_is_template(const project::Image& image) {
  return image.dockerfile.empty() || image.dockerfile.ends_with(".j2");
}

std::string dockerfile_template_name(const project::Image& image) {
  return image.dockerfile.empty() ? "Dockerfile.j2" : image.dockerfile;
}

std::filesystem::path user_dockerfile(const project::Project& project, const project::Image& image) {
  if (dockerfile_is_template(image)) return {};
  // As the user would write it from here: errors read "Dockerfile:5:6: error: …".
  const auto path = (project.dir / image.dockerfile).lexically_normal();
  std::error_code error;
  const auto here = std::filesystem::current_path(error);
  const auto relative = error ? std::filesystem::path() : path.lexically_relative(here);
  return relative.empty() || *relative.begin() == ".." ? path : relative;
}

std::string read_user_dockerfile(const project::Project& project, const project::Image& image) {
  const auto path = user_dockerfile(project, image);
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error))
    throw SourceError(image.where, "image '" + image.name + "': dockerfile " + path.string() + " does not exist");
  try {
    return read_file(path);
  } catch (const std::exception&) {
    throw SourceError(image.where, "image '" + image.name + "': cannot read dockerfile " + path.string());
  }
}

void add_dockerfile_template(jinja::Environment& environment, const project::Project& project,
                             const project::Image& image) {
  if (!dockerfile_is_template(image)) return;
  if (image.dockerfile.empty() || std::filesystem::exists(project.dir / "templates" / image.dockerfile)) return;
  const auto path = project.dir / image.dockerfile;
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error))
    throw SourceError(image.where, "image '" + image.name + "': dockerfile template " + path.string() +
                                       " does not exist (looked in " + (project.dir / "templates").string() +
                                       " and " + project.dir.string() + ")");
  environment.add_template(image.dockerfile, template_source(project.dir, image.dockerfile).value_or(""));
}

}  // namespace gkebuild::render
