// YAML values as JSON values (template contexts): scalars typed by the YAML 1.2
// core schema, mapping order kept.
#pragma once

#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>

#include <string_view>

namespace gkebuild::yamlfile {

nlohmann::ordered_json to_json(const YAML::Node& node);
// One scalar written on a command line (`--set k=v`): `3` is a number, `true` a boolean,
// `'3'` and "3" strings; anything else its text.
nlohmann::ordered_json scalar_to_json(std::string_view text);

}  // namespace gkebuild::yamlfile
