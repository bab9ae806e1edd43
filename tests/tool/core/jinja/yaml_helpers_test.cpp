// gkebuild's YAML helpers (toyaml, quote, required): round trip through yaml-cpp.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>

#include "base/source_error.h"
#include "tool/core/jinja/environment.h"
#include "yaml_values.h"

namespace gkebuild::jinja {
namespace {

using Json = nlohmann::ordered_json;

// Checks that YAML read back by yaml-cpp holds exactly `expected`, types included: a plain
// scalar standing for a string must not be readable as a bool, number or null.
void expect_same(const YAML::Node& node, const Json& expected, const std::string& path) {
  SCOPED_TRACE(path);
  switch (expected.type()) {
    case Json::value_t::object: {
      ASSERT_TRUE(node.IsMap());
      ASSERT_EQ(node.size(), expected.size());
      for (auto it = expected.begin(); it != expected.end(); ++it) {
        ASSERT_TRUE(node[it.key()]) << "missing key " << it.key();
        expect_same(node[it.key()], it.value(), path + "." + it.key());
      }
      return;
    }
    case Json::value_t::array: {
      ASSERT_TRUE(node.IsSequence());
      ASSERT_EQ(node.size(), expected.size());
      for (size_t i = 0; i < expected.size(); ++i) expect_same(node[i], expected[i], path + "[" + std::to_string(i) + "]");
      return;
    }
    case Json::value_t::null: EXPECT_TRUE(node.IsNull()); return;
    case Json::value_t::boolean: EXPECT_EQ(node.as<bool>(), expected.get<bool>()); return;
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned: EXPECT_EQ(node.as<int64_t>(), expected.get<int64_t>()); return;
    case Json::value_t::number_float: {
      double d = node.as<double>();
      EXPECT_EQ(d, expected.get<double>());
      EXPECT_EQ(std::signbit(d), std::signbit(expected.get<double>()));
      return;
    }
    case Json::value_t::string: {
      ASSERT_TRUE(node.IsScalar());
      EXPECT_EQ(node.Scalar(), expected.get<std::string>());
      if (node.Tag() == "?") {  // plain scalar: nothing may read it as another type
        bool as_bool;
        double as_double;
        EXPECT_FALSE(YAML::convert<bool>::decode(node, as_bool)) << node.Scalar();
        EXPECT_FALSE(YAML::convert<double>::decode(node, as_double)) << node.Scalar();
        EXPECT_FALSE(node.IsNull());
      }
      return;
    }
    default: FAIL() << "unexpected JSON type";
  }
}

std::string render(const std::string& tmpl, const Json& context) {
  Environment env;
  return env.render_string(tmpl, context);
}

TEST(JinjaToYaml, TrickyValuesRoundTripThroughYamlCpp) {
  Json values = testing::tricky_yaml_values();
  for (const char* tmpl : {"{{ v | toyaml }}", "{{ v | toyaml(indent=4) }}", "root:\n  {{ v | toyaml | indent(2) }}"}) {
    std::string yaml = render(tmpl, {{"v", values}});
    YAML::Node node = YAML::Load(yaml);
    if (std::string(tmpl).rfind("root:", 0) == 0) node = node["root"];
    expect_same(node, values, tmpl);
  }
}

TEST(JinjaToYaml, EachStringAloneRoundTrips) {
  const Json values = testing::tricky_yaml_values();  // a named copy: range-for over a temporary's member dangles
  for (const auto& s : values["strings"]) {
    std::string yaml = render("key: {{ v | toyaml }}", {{"v", s}});
    expect_same(YAML::Load(yaml)["key"], s, yaml);
  }
}

TEST(JinjaToYaml, BlockLayout) {
  Json v = Json::parse(R"({"a": [1, {"b": "x", "c": []}], "d": {}, "e": [[1, 2]]})");
  EXPECT_EQ(render("{{ v | toyaml }}", {{"v", v}}), "a:\n  - 1\n  - b: x\n    c: []\nd: {}\ne:\n  - - 1\n    - 2");
  EXPECT_EQ(render("{{ 'yes' | toyaml }}|{{ 1e20 | toyaml }}|{{ none | toyaml }}", Json::object()), "\"yes\"|1.0e+20|null");
}

TEST(JinjaQuote, ProducesScalarsThatYamlAndJsonReadBack) {
  const Json values = testing::tricky_yaml_values();  // a named copy: range-for over a temporary's member dangles
  for (const auto& s : values["strings"]) {
    std::string quoted = render("{{ v | quote }}", {{"v", s}});
    EXPECT_EQ(YAML::Load("k: " + quoted)["k"].Scalar(), s.get<std::string>()) << quoted;
    EXPECT_EQ(Json::parse(quoted).get<std::string>(), s.get<std::string>()) << quoted;
  }
  EXPECT_EQ(render("{{ 80 | quote }}", Json::object()), "\"80\"");
}

TEST(JinjaRequired, FailsWithTheMessageForMissingOrEmptyValues) {
  EXPECT_EQ(render("{{ required(x, 'x is needed') }}", {{"x", 0}}), "0");
  EXPECT_EQ(render("{{ x | required('x is needed') }}", {{"x", false}}), "False");
  for (const Json& context : {Json::object(), Json{{"x", nullptr}}, Json{{"x", ""}}, Json{{"x", Json::array()}}}) {
    try {
      render("a\n{{ x | required('set image.tag in values.yaml') }}", context);
      ADD_FAILURE() << "no error for " << context.dump();
    } catch (const SourceError& error) {
      EXPECT_EQ(error.message(), "set image.tag in values.yaml");
      EXPECT_EQ(error.where().line, 2);
    }
  }
}

}  // namespace
}  // namespace gkebuild::jinja
