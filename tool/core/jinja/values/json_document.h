// JSON contexts as values documents (DocSlot, value.h): the one form in which the engine reads
// data it did not make. A JSON context is indexed, not copied: the document holds a slot of
// 16 bytes per value, its strings point into the JSON, and the JSON must outlive every render
// that reads the document.
#pragma once

#include <initializer_list>

#include "tool/core/jinja/values/value.h"

namespace gkebuild::jinja {

// The value of `json`; its lists and mappings are the document's, kept alive by the value.
Value json_document(const Json& json);

// One mapping of the members of each of `mappings` in turn (JSON objects whose keys are
// distinct): a project item's own variables, then those it shares with its sweep.
Value json_document(std::initializer_list<const Json*> mappings);

}  // namespace gkebuild::jinja
