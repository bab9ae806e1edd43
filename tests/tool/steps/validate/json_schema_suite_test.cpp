// Debian's JSON-Schema-Test-Suite (draft 7) through the schema validator gkebuild uses,
// for the keywords the Kubernetes schemas use. Cases valijson gets wrong are listed in
// json_schema_suite_gaps.txt; anything else that fails, or a listed gap that starts
// passing, fails this test.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/validator.hpp>

#include "tool/steps/validate/schema_store.h"

namespace gkebuild::validate {
namespace {

const std::filesystem::path kSuite = "/usr/share/json-schema-test-suite/tests/draft7";
const char* const kKeywordFiles[] = {
    "type", "properties", "additionalProperties", "required", "items", "enum", "ref", "oneOf",
    "anyOf", "allOf", "not", "definitions", "default", "patternProperties", "minimum", "maximum",
    "minItems", "maxItems", "minLength", "maxLength", "pattern", "uniqueItems", "const"};

std::set<std::string> known_gaps() {
  std::set<std::string> gaps;
  std::ifstream in(std::string(GKEBUILD_SOURCE_ROOT) + "/tests/tool/steps/validate/json_schema_suite_gaps.txt");
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') gaps.insert(line);
  return gaps;
}

bool uses_remote_ref(const nlohmann::json& schema) {
  std::string text = schema.dump();
  return text.find("http://localhost:1234") != std::string::npos;
}

TEST(JsonSchemaTestSuite, Draft7KeywordsKubernetesUses) {
  if (!std::filesystem::exists(kSuite)) GTEST_SKIP() << "json-schema-test-suite is not installed (scripts/setup.sh)";
  std::set<std::string> failures;
  int passed = 0;
  for (const char* keyword : kKeywordFiles) {
    std::ifstream in(kSuite / (std::string(keyword) + ".json"));
    ASSERT_TRUE(in) << keyword;
    auto groups = nlohmann::json::parse(in);
    for (const auto& group : groups) {
      std::string group_id = std::string(keyword) + ": " + group["description"].get<std::string>();
      if (uses_remote_ref(group["schema"])) continue;  // remote refs need a server; Kubernetes uses none
      std::unique_ptr<CompiledSchema> schema;
      try {
        schema = compile_schema(group["schema"], group_id);
      } catch (const std::exception&) {
        failures.insert(group_id + " (schema not compiled)");
        continue;
      }
      for (const auto& test : group["tests"]) {
        valijson::Validator validator(valijson::Validator::kStrongTypes);
        valijson::adapters::NlohmannJsonAdapter target(test["data"]);
        bool valid = validator.validate(schema->schema, target, nullptr);
        if (valid == test["valid"].get<bool>()) ++passed;
        else failures.insert(group_id + " / " + test["description"].get<std::string>());
      }
    }
  }
  auto gaps = known_gaps();
  for (const auto& f : failures) EXPECT_TRUE(gaps.count(f)) << "unexpected failure: " << f;
  for (const auto& g : gaps) EXPECT_TRUE(failures.count(g)) << "listed gap now passes, remove it: " << g;
  EXPECT_GT(passed, 250);
}

}  // namespace
}  // namespace gkebuild::validate
