// JSON contexts indexed as values documents (tool/core/jinja/values/json_document.h): every value reads
// back as the JSON it came from, a merged context keeps its parts' order, and what a template
// changes in place stays in its own render.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "tool/core/jinja/environment.h"
#include "tool/core/jinja/errors.h"
#include "tool/core/jinja/values/json_document.h"

namespace gkebuild::jinja {
namespace {

using nlohmann::ordered_json;

TEST(JsonDocument, ReadsBackEveryKindOfValue) {
  const auto json = ordered_json::parse(R"({"s": "caf\u00e9", "i": -3, "u": 7, "f": 0.5, "t": true, "n": null,
      "empty_list": [], "empty_map": {}, "nested": [{"b": [1, [2, {"c": "d"}]], "a": {}}, [], "x"]})");
  EXPECT_EQ(to_json(json_document(json)).dump(), json.dump());
}

TEST(JsonDocument, ReadsBackAContextLargerThanItsFirstSlots) {
  ordered_json json = {{"records", ordered_json::array()}};
  for (int i = 0; i < 500; ++i)
    json["records"].push_back({{"name", "job-" + std::to_string(i)}, {"tags", {i, i + 1}}, {"labels", {{"k", i}}}});
  EXPECT_EQ(to_json(json_document(json)).dump(), json.dump());
}

TEST(JsonDocument, MergedMappingHasEachPartsMembersInTurn) {
  const ordered_json own = {{"z", 1}, {"a", {2, 3}}};
  const ordered_json shared = {{"m", {{"k", "v"}}}, {"b", ""}};
  EXPECT_EQ(to_json(json_document({&own, &shared})).dump(), R"({"z":1,"a":[2,3],"m":{"k":"v"},"b":""})");
  const ordered_json empty = ordered_json::object();
  EXPECT_EQ(to_json(json_document({&empty, &empty})).dump(), "{}");
  const ordered_json list = {1, 2};
  EXPECT_THROW(json_document({&own, &list}), EvalError);
}

TEST(JsonDocument, IntegerBeyond64BitsFailsOnlyWhenRead) {
  const auto json = ordered_json::parse(R"({"big": [18446744073709551615], "small": 9223372036854775807})");
  Environment environment;
  EXPECT_EQ(environment.render_string("{{ small }} {{ big | length }}", json), "9223372036854775807 1");
  try {
    environment.render_string("{{ big[0] }}", json);
    FAIL() << "the integer was read";
  } catch (const TemplateError& error) {
    EXPECT_NE(std::string(error.what()).find("integer 18446744073709551615 in the context does not fit"),
              std::string::npos)
        << error.what();
  }
}

TEST(JsonDocument, ChangesInPlaceStayInTheirRender) {
  const ordered_json json = {{"xs", {1}}, {"d", {{"a", 1}}}};
  Environment environment;
  const std::string tmpl = "{% set _ = xs.append(2) %}{% set _ = d.update(b=2) %}{{ xs }} {{ d }}";
  EXPECT_EQ(environment.render_string(tmpl, json), "[1, 2] {'a': 1, 'b': 2}");
  EXPECT_EQ(environment.render_string(tmpl, json), "[1, 2] {'a': 1, 'b': 2}");  // not [1, 2, 2]
  EXPECT_EQ(json.dump(), R"({"xs":[1],"d":{"a":1}})");
}

TEST(JsonDocument, SameContainerIsSameAs) {
  const ordered_json json = {{"xs", {1}}, {"ys", {1}}};
  Environment environment;
  EXPECT_EQ(environment.render_string("{{ xs is sameas xs }} {{ xs is sameas ys }} {{ xs == ys }}", json),
            "True False True");
}

}  // namespace
}  // namespace gkebuild::jinja
