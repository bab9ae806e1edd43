// Values files in YAML, read through libyaml's event API straight into engine values.
#pragma once

#include <string>

#include "tool/core/jinja/values/value.h"

namespace gkebuild::render {

// Parses the first YAML document of `text`. Scalars are typed as yamlfile::resolve_scalar
// types them (the YAML 1.2 core schema; quoted or tagged scalars are strings); keys are
// their text; anchors and aliases are shared values, not copies (`<<` is an ordinary key).
// Syntax errors, duplicate keys, non-scalar keys, undefined or recursive aliases, nesting
// deeper than kMaxValuesDepth and aliases standing for more than kMaxAliasedNodes nodes
// throw SourceError at file:line:col.
jinja::Value parse_yaml_values(std::string text, const std::string& file);

}  // namespace gkebuild::render
