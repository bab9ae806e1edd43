#include "tool/steps/validate/schema_store.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema_parser.hpp>

#include "base/atomic_file.h"
#include "base/error.h"
#include "tool/steps/validate/package_schemas.h"
#include "tool/steps/validate/schema_bundle.h"

namespace gkebuild::validate {
namespace fs = std::filesystem;

namespace {

// Bump when the bundled form changes, so stale cache files are not used.
constexpr const char* kBundleFormat = "bundle-v2";

std::string cache_key(const SchemaSource& source) {
  return fnv1a_hex(std::string(kBundleFormat) + "\n" + source.id + "\n" + std::to_string(source.stamp));
}

std::optional<nlohmann::json> read_json(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  auto parsed = nlohmann::json::parse(text.str(), nullptr, false);
  if (parsed.is_discarded()) return std::nullopt;
  return parsed;
}

}  // namespace

std::unique_ptr<CompiledSchema> compile_schema(nlohmann::json document, std::string source) {
  auto compiled = std::make_unique<CompiledSchema>();
  compiled->source = std::move(source);
  compiled->document = std::move(document);
  valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
  valijson::adapters::NlohmannJsonAdapter adapter(compiled->document);
  parser.populateSchema(adapter, compiled->schema);
  return compiled;
}

SchemaStore::SchemaStore(const SchemaLocator& locator, fs::path cache_dir)
    : locator_(locator), cache_dir_(std::move(cache_dir)) {}

const CompiledSchema* SchemaStore::find(std::string_view api_version, std::string_view kind) {
  std::string key = std::string(api_version) + "\n" + std::string(kind);
  if (auto it = compiled_.find(key); it != compiled_.end()) return it->second.get();
  auto source = locator_.find(api_version, kind);
  std::unique_ptr<CompiledSchema> compiled;
  if (source) {
    try {
      compiled = compile_schema(load_bundled(*source), source->id);
    } catch (const std::exception& e) {
      throw Error(ErrorKind::kFailed, "cannot use schema " + source->id + ": " + e.what());
    }
  }
  return compiled_.emplace(key, std::move(compiled)).first->second.get();
}

nlohmann::json SchemaStore::load_bundled(const SchemaSource& source) {
  fs::path cached = cache_dir_ / "schemas" / (cache_key(source) + ".json");
  if (auto hit = read_json(cached)) return std::move(*hit);
  auto kind_schema = nlohmann::json::parse(locator_.text_of(source));
  DocumentLoader load = [&](const std::string& name) -> const nlohmann::json& {
    std::string id = source.base + "\n" + name;
    auto it = documents_.find(id);
    if (it == documents_.end())
      it = documents_.emplace(id, nlohmann::json::parse(locator_.read_sibling(source, name))).first;
    return it->second;
  };
  nlohmann::json bundled = bundle_schema(kind_schema, load);
  try {
    write_file_atomically(cached, bundled.dump());
  } catch (const std::exception&) {
    // A read-only cache makes later runs slower, not wrong.
  }
  return bundled;
}

}  // namespace gkebuild::validate
