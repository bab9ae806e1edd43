#include "render/dockerfile_template.h"

#include "base/source_error.h"
#include "render/shipped_templates.h"

namespace gkebuild::render {

std::string dockerfile_template_name(const project::Image& image) {
  return image.dockerfile.empty() ? "Dockerfile.j2" : image.dockerfile;
}

void add_dockerfile_template(jinja::Environment& environment, const project::Project& project,
                             const project::Image& image) {
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
