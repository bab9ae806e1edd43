// Compiled schemas per apiVersion/kind, loaded once per run. Bundled schemas are
// cached on disk so a pre-commit run does not re-read the 1.8 MB definitions file.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>
#include <valijson/schema.hpp>

#include "tool/steps/validate/schema_locator.h"

namespace gkebuild::validate {

struct CompiledSchema {
  std::string source;        // where it came from, for messages
  nlohmann::json document;   // the bundled schema (for messages: known fields, enums)
  valijson::Schema schema;   // compiled from `document`
};

// Compiles a self-contained JSON schema document with valijson (draft 7 rules).
std::unique_ptr<CompiledSchema> compile_schema(nlohmann::json document, std::string source);

class SchemaStore {
 public:
  SchemaStore(const SchemaLocator& locator, std::filesystem::path cache_dir);

  // nullptr when no source has a schema for this apiVersion/kind.
  // Throws std::runtime_error when a schema exists but cannot be read or compiled.
  const CompiledSchema* find(std::string_view api_version, std::string_view kind);

 private:
  nlohmann::json load_bundled(const SchemaSource& source);

  const SchemaLocator& locator_;
  std::filesystem::path cache_dir_;
  std::map<std::string, std::unique_ptr<CompiledSchema>, std::less<>> compiled_;
  std::map<std::string, nlohmann::json> documents_;  // sibling documents by base + name
};

}  // namespace gkebuild::validate
