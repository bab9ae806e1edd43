// Values files in JSON, read straight into a values document (jinja::DocSlot): one compact,
// read-only tree, with no allocation or reference count per container.
#pragma once

#include <string>
#include <utility>

#include "tool/core/jinja/values/value.h"
#include "tool/core/yamlfile/document.h"

namespace gkebuild::render {

// Parses one JSON document. Syntax errors, duplicate keys and nesting deeper than
// kMaxValuesDepth throw SourceError at file:line:col. Numbers: integers that fit in 64 bits are
// ints, other numbers with a fraction or exponent floats; an integer beyond 64 bits is an
// error when a template reads it (a whole document that is one: a SourceError here).
// The result owns the document; the lists, dicts and strings inside it borrow from it, so
// they must not outlive it (a merge of values files keeps the documents, see values.h).
jinja::Value parse_json_values(yamlfile::FileText text, const std::string& file);
inline jinja::Value parse_json_values(std::string text, const std::string& file) {
  return parse_json_values(yamlfile::FileText(std::move(text)), file);
}

}  // namespace gkebuild::render
