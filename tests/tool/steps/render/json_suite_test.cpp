// The JSON values reader (tool/steps/render/values_json.h) against JSONTestSuite's parsing cases
// (tests/tool/steps/render/json_test_suite, from nst/JSONTestSuite): every y_ document is read as
// nlohmann::json reads it, every n_ document is refused with file:line:col, and no i_ document
// ends in anything but a value or that error. The documented differences are listed below,
// and each is checked to give exactly what is documented.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/source_error.h"
#include "tool/core/jinja/errors.h"
#include "tool/steps/render/values_json.h"

namespace gkebuild::render {
namespace {

namespace fs = std::filesystem;
using ordered_json = nlohmann::ordered_json;

const fs::path kSuite = fs::path(GKEBUILD_SOURCE_ROOT) / "tests/tool/steps/render/json_test_suite";

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

struct Document {
  std::string name;
  std::string text;
};

// The suite's documents whose names start with `prefix`, in name order.
std::vector<Document> documents(const std::string& prefix) {
  std::vector<Document> out;
  for (const auto& entry : fs::directory_iterator(kSuite)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with(prefix) && name.ends_with(".json")) out.push_back({name, read(entry.path())});
  }
  std::sort(out.begin(), out.end(), [](const Document& a, const Document& b) { return a.name < b.name; });
  return out;
}

// What gkebuild refuses on purpose where JSON allows it, and why.
const std::map<std::string, std::string> kRefusedOnPurpose = {
    {"y_object_duplicated_key.json", "duplicate keys in a values file are an error, as in YAML"},
    {"y_object_duplicated_key_and_value.json", "duplicate keys in a values file are an error, as in YAML"},
};

// Integers beyond 64 bits: read, and an error when a template (or to_json) reads them, never
// a rounded float.
const std::map<std::string, std::string> kBigIntegers = {
    {"i_number_too_big_neg_int.json", "integer beyond 64 bits"},
    {"i_number_too_big_pos_int.json", "integer beyond 64 bits"},
    {"i_number_very_big_negative_int.json", "integer beyond 64 bits"},
};

// What gkebuild accepts on purpose where JSON does not.
const std::map<std::string, std::string> kAcceptedOnPurpose = {
    {"n_structure_no_data.json", "an empty values file means no values, as an empty YAML file does"},
    {"n_single_space.json", "a values file of white space only means no values"},
    {"n_structure_UTF8_BOM_no_data.json", "a byte order mark alone: no values (editors write one)"},
};

TEST(JsonTestSuite, EveryListedDifferenceIsACaseOfTheSuite) {
  for (const auto* list : {&kRefusedOnPurpose, &kBigIntegers, &kAcceptedOnPurpose})
    for (const auto& [name, why] : *list) EXPECT_TRUE(fs::exists(kSuite / name)) << name;
}

TEST(JsonTestSuite, ReadsEveryValidDocumentAsNlohmannDoes) {
  const auto cases = documents("y_");
  EXPECT_EQ(cases.size(), 95u);
  for (const auto& [name, text] : cases) {
    if (kRefusedOnPurpose.count(name)) {
      EXPECT_THROW(parse_json_values(text, name), SourceError) << name << ": " << kRefusedOnPurpose.at(name);
      continue;
    }
    jinja::Value value;
    try {
      value = parse_json_values(text, name);
    } catch (const std::exception& error) {
      ADD_FAILURE() << name << ": refused: " << error.what();
      continue;
    }
    EXPECT_EQ(jinja::to_json(value).dump(), ordered_json::parse(text).dump()) << name;
  }
}

TEST(JsonTestSuite, RefusesEveryInvalidDocumentWithItsPosition) {
  const auto cases = documents("n_");
  EXPECT_EQ(cases.size(), 188u);
  for (const auto& [name, text] : cases) {
    if (kAcceptedOnPurpose.count(name)) {
      EXPECT_TRUE(parse_json_values(text, name).is_none()) << name << ": " << kAcceptedOnPurpose.at(name);
      continue;
    }
    try {
      parse_json_values(text, name);
      ADD_FAILURE() << name << ": accepted";
    } catch (const SourceError& error) {
      const SourceLocation& where = error.where();
      EXPECT_EQ(where.file, name);
      EXPECT_GE(where.line, 1) << name;
      EXPECT_GE(where.column, 1) << name;
      // What the user sees starts with it too.
      const std::string at = name + ":" + std::to_string(where.line) + ":" + std::to_string(where.column) + ": ";
      EXPECT_TRUE(std::string(error.what()).starts_with(at)) << name << ": " << error.what();
    } catch (const std::exception& error) {
      ADD_FAILURE() << name << ": not a positioned error: " << error.what();
    }
  }
}

TEST(JsonTestSuite, ImplementationDefinedDocumentsAreReadOrRefusedCleanly) {
  const auto cases = documents("i_");
  EXPECT_EQ(cases.size(), 35u);
  for (const auto& [name, text] : cases) {
    try {
      const jinja::Value value = parse_json_values(text, name);
      if (kBigIntegers.count(name)) {
        EXPECT_THROW(jinja::to_json(value), jinja::EvalError) << name << ": " << kBigIntegers.at(name);
      }
    } catch (const SourceError& error) {
      EXPECT_FALSE(kBigIntegers.count(name)) << name << ": refused: " << error.what();
    } catch (const std::exception& error) {
      ADD_FAILURE() << name << ": " << error.what();
    }
  }
}

}  // namespace
}  // namespace gkebuild::render
