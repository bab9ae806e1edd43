// Where an image's Dockerfile template comes from: the template the image names
// under `dockerfile:` (in the project's templates/ folder or beside gkebuild.yaml),
// else the shipped Dockerfile.j2.
#pragma once

#include <string>

#include "jinja/environment.h"
#include "project/project.h"

namespace gkebuild::render {

std::string dockerfile_template_name(const project::Image& image);

// Makes the image's own template known to `environment` when it lives beside
// gkebuild.yaml rather than in templates/ (add_project_templates covers those).
// Throws SourceError, at the image, when it is in neither place.
void add_dockerfile_template(jinja::Environment& environment, const project::Project& project,
                             const project::Image& image);

}  // namespace gkebuild::render
