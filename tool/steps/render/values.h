// The values a render starts from: values files (YAML or JSON) merged in order, then
// key.path=value assignments, as Helm's and j2cli's --values and --set do. They are read
// straight into engine values (see values_json.h and values_yaml.h); project renders, whose
// contexts are JSON, convert them with jinja::to_json.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "tool/core/jinja/values/value.h"

namespace gkebuild::render {

// Deep merge: mappings merge key by key, anything else in `overlay` replaces. Mappings are
// copied where they change, never changed in place: a YAML alias may share them.
void merge_values(jinja::Value& base, const jinja::Value& overlay);

// Reads one values file (at most 16 MiB): JSON when its name ends in .json, YAML otherwise.
// Its top level must be a mapping; an empty file is an empty mapping.
jinja::Value load_values_file(const std::filesystem::path& path);

// A dotted key path and the text of its value: {"a.b.c", "3"}.
using Assignment = std::pair<std::string, std::string>;

// Sets values[a][b][c]; the value is typed as a YAML scalar ("3" a number, "'3'" a string).
// An empty key ("a..b") throws Error(kBadInput).
void apply_set(jinja::Value& values, const Assignment& assignment);

// The files merged in order, then the assignments; always a mapping.
jinja::Value load_values(const std::vector<std::filesystem::path>& files,
                         const std::vector<Assignment>& assignments);

}  // namespace gkebuild::render
