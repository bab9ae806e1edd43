// gkebuild extensions beyond Jinja2 for writing YAML safely (documented as non-Jinja):
// the `toyaml` and `quote` filters and the `required` global/filter.
#pragma once

#include <string>
#include <string_view>

#include "tool/core/jinja/values/value.h"

namespace gkebuild::jinja {

// True when a plain (unquoted) YAML scalar with this text could be read by a YAML 1.1,
// YAML 1.2 or go-yaml parser as anything but this exact string.
bool yaml_needs_quotes(std::string_view text);
// A double-quoted scalar that YAML and JSON both read back as `text` (raw UTF-8 kept).
std::string yaml_double_quoted(std::string_view text);
// Block-style YAML for a value, without a trailing newline; `indent` spaces per level.
std::string to_yaml(const Value& value, int indent = 2);
// Fails with `message` when the value is undefined, none or empty; returns it otherwise.
Value check_required(const Value& value, const Value* message);

}  // namespace gkebuild::jinja
