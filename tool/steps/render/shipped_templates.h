// The templates gkebuild ships (templates/ in the source tree, compiled into the binary),
// and the template environment of a project: its own templates/ folder first, so a file
// there with a shipped template's name replaces it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tool/core/jinja/environment.h"

namespace gkebuild::render {

std::vector<std::string> shipped_template_names();
std::optional<std::string_view> shipped_template(std::string_view name);

// Search path: <project_dir>/templates, then the shipped templates not overridden there.
void add_project_templates(jinja::Environment& environment, const std::filesystem::path& project_dir);

// The source of `name` as `environment` would find it for this project (for mapping
// rendered lines back to template lines); nullopt if unknown.
std::optional<std::string> template_source(const std::filesystem::path& project_dir, const std::string& name);

}  // namespace gkebuild::render
