// The values a render starts from: --values files (YAML or JSON) merged in order, then
// --set key.path=value assignments, as Helm and j2cli users expect.
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace gkebuild::render {

// Deep merge: mappings merge key by key, anything else in `overlay` replaces.
void merge_values(nlohmann::ordered_json& base, const nlohmann::ordered_json& overlay);

// Reads one values file (at most 16 MiB); its top level must be a mapping.
nlohmann::ordered_json load_values_file(const std::filesystem::path& path);

// Applies "a.b.c=value"; value is typed as a YAML scalar ("3" a number, "'3'" a string).
// A malformed assignment throws SourceError naming "--set".
void apply_set(nlohmann::ordered_json& values, const std::string& assignment);

nlohmann::ordered_json load_values(const std::vector<std::filesystem::path>& files,
                                   const std::vector<std::string>& assignments);

}  // namespace gkebuild::render
