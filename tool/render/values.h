// The values a render starts from: values files (YAML or JSON) merged in order, then
// key.path=value assignments, as Helm's and j2cli's --values and --set do.
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace gkebuild::render {

// Deep merge: mappings merge key by key, anything else in `overlay` replaces.
void merge_values(nlohmann::ordered_json& base, const nlohmann::ordered_json& overlay);

// Reads one values file (at most 16 MiB); its top level must be a mapping.
nlohmann::ordered_json load_values_file(const std::filesystem::path& path);

// A dotted key path and the text of its value: {"a.b.c", "3"}.
using Assignment = std::pair<std::string, std::string>;

// Sets values[a][b][c]; the value is typed as a YAML scalar ("3" a number, "'3'" a string).
// An empty key ("a..b") throws Error(kBadInput).
void apply_set(nlohmann::ordered_json& values, const Assignment& assignment);

nlohmann::ordered_json load_values(const std::vector<std::filesystem::path>& files,
                                   const std::vector<Assignment>& assignments);

}  // namespace gkebuild::render
