// Turns a kind's schema and the documents its $refs point into (_definitions.json)
// into one small self-contained document: every reachable definition copied under
// "$defs", everything validation ignores (descriptions, x-kubernetes-* extensions,
// formats) dropped. The result is what gets compiled, and cached on disk.
#pragma once

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

namespace gkebuild::validate {

// Returns the parsed document named by a $ref's part before '#' (e.g.
// "/api/_definitions.json"); throws when it cannot be read.
using DocumentLoader = std::function<const nlohmann::json&(const std::string& name)>;

// A schema pattern as std::regex (ECMAScript) reads it. CRD schemas are written for Go's RE2,
// and some open with its case-insensitive flag, (?i) (Kueue's AdmissionCheck names do), which
// ECMAScript lacks: that one flag is written out as both cases of every letter. Other
// patterns are returned as they are.
std::string ecmascript_pattern(const std::string& pattern);

nlohmann::json bundle_schema(const nlohmann::json& kind_schema, const DocumentLoader& load);

}  // namespace gkebuild::validate
