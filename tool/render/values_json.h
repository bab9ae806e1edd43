// Values files in JSON, read straight into engine values (no intermediate tree).
#pragma once

#include <string>

#include "jinja/value.h"

namespace gkebuild::render {

// Parses one JSON document. Syntax errors, duplicate keys and nesting deeper than
// kMaxValuesDepth throw SourceError at file:line:col. Numbers are typed as the YAML
// reader types them: integers that fit in 64 bits are ints, everything else floats.
jinja::Value parse_json_values(std::string text, const std::string& file);

}  // namespace gkebuild::render
