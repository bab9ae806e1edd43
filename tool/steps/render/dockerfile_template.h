// Where an image's Dockerfile comes from: the user's own file under `dockerfile:` (used as
// written), a template the image names under `dockerfile:` ending in .j2 (in the project's
// templates/ folder or beside gkebuild.yaml), else the shipped Dockerfile.j2.
#pragma once

#include <filesystem>
#include <string>

#include "tool/core/jinja/environment.h"
#include "tool/core/project/project.h"

namespace gkebuild::render {

// The image's Dockerfile is a template to render (the shipped one, or `dockerfile: *.j2`).
bool dockerfile_is_template(const project::Image& image);

std::string dockerfile_template_name(const project::Image& image);

// The user's Dockerfile used as written (`dockerfile:` not ending in .j2), as the project
// names it (relative to the current folder when gkebuild.yaml's is); empty for a template.
std::filesystem::path user_dockerfile(const project::Project& project, const project::Image& image);

// The user's Dockerfile's text. Throws SourceError, at the image, when it cannot be read.
std::string read_user_dockerfile(const project::Project& project, const project::Image& image);

// Makes the image's own template known to `environment` when it lives beside
// gkebuild.yaml rather than in templates/ (add_project_templates covers those).
// Throws SourceError, at the image, when it is in neither place.
void add_dockerfile_template(jinja::Environment& environment, const project::Project& project,
                             const project::Image& image);

}  // namespace gkebuild::render
