// Validates one object against its compiled schema and turns valijson's results into
// precise issues: the path of the offending field (the key itself for an unknown
// field) and a message that names the field, what was expected and what was found.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tool/steps/validate/manifest.h"
#include "tool/steps/validate/schema_store.h"

namespace gkebuild::validate {

struct SchemaIssue {
  Path path;
  bool at_key = false;  // point at the key (unknown fields) rather than the value
  std::string message;
};

std::vector<SchemaIssue> check_against_schema(const CompiledSchema& schema, const nlohmann::json& value);

}  // namespace gkebuild::validate
