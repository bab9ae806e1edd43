// Typing of plain YAML scalars the way PyYAML's SafeLoader (YAML 1.1) does, which is
// what kubernetes-validate and most Kubernetes tooling see: `yes` is true, `010` is 8,
// `1e3` stays a string (1.1 floats need a dot), `~` is null.
#pragma once

#include <nlohmann/json.hpp>

#include <string_view>

namespace gkebuild::validate {

// The JSON value of an untagged plain scalar.
nlohmann::json resolve_plain_scalar(std::string_view text);

// The JSON value of a scalar with an explicit tag ("!" for quoted scalars, "?" for
// plain ones, "tag:yaml.org,2002:int" and friends for !!int …).
nlohmann::json resolve_scalar(std::string_view text, std::string_view tag);

}  // namespace gkebuild::validate
