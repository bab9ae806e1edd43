// YAML 1.2 core-schema typing of scalars: what a plain `3`, `true`, `~` or `1e3` means.
// Quoted scalars and `!!str` are always strings.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <string_view>
#include <vector>

#include "tool/core/yamlfile/document.h"

namespace gkebuild::yamlfile {

enum class ScalarKind { Null, Bool, Integer, Float, String };

// The kind of a scalar written as `text`, plain (unquoted) or not.
ScalarKind resolve_scalar(std::string_view text, bool plain);
// The kind of a scalar node (null nodes are Null).
ScalarKind resolve_scalar(const YAML::Node& node);

// A scalar's value once typed: an Integer too large for 64 bits is read as a Float.
struct ScalarValue {
  ScalarKind kind = ScalarKind::Null;
  bool boolean = false;
  long long integer = 0;
  double number = 0;
};
// The value of `text` read as `kind` (from resolve_scalar); String kinds carry no value.
ScalarValue scalar_value(std::string_view text, ScalarKind kind);

// How `--set k=v` types v: quoted ('3' or "3") is a string and loses its quotes, empty is
// the empty string (as Helm reads it), anything else is typed as a plain scalar.
ScalarKind resolve_command_line_scalar(std::string_view& text);

// "a mapping", "a list", "null", "a string", "an integer"… for "expected X, got Y" messages.
std::string describe(const YAML::Node& node);

// Typed reads of one node; a wrong type throws SourceError at the node naming `what`
// and what was expected.
std::string as_string(const Document& doc, const YAML::Node& node, std::string_view what);
// Any scalar (string, number, bool) as its source text; for args and env values.
std::string as_scalar_text(const Document& doc, const YAML::Node& node, std::string_view what);
long long as_integer(const Document& doc, const YAML::Node& node, std::string_view what);
double as_number(const Document& doc, const YAML::Node& node, std::string_view what);
bool as_bool(const Document& doc, const YAML::Node& node, std::string_view what);
// A list of scalars, each as its source text.
std::vector<std::string> as_strings(const Document& doc, const YAML::Node& node,
                                    std::string_view what);

}  // namespace gkebuild::yamlfile
