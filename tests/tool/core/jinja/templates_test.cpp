// include / import / extends between templates; expectations recorded from Jinja2 3.1.6.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "base/source_error.h"
#include "tests/common/temp_dir.h"
#include "tool/core/jinja/environment.h"

namespace gkebuild::jinja {
namespace {

using Json = nlohmann::ordered_json;

std::string render(Environment& env, const std::string& tmpl, const Json& context = Json::object()) {
  return env.render_string(tmpl, context);
}

Environment lenient() {
  Options options;
  options.undefined = UndefinedMode::Lenient;
  return Environment(options);
}

TEST(JinjaInclude, DropsTrailingNewlineAndSeesContextAndLoopVariables) {
  Environment env = lenient();
  env.add_template("f", "line {{ x }}\n");
  env.add_template("g", "[inc x={{ x }} loopvar={{ i }}]");
  EXPECT_EQ(render(env, "<{% include 'f' %}>", {{"x", 1}}), "<line 1>");
  EXPECT_EQ(render(env, "{% for i in [7] %}{% include 'g' %}{% endfor %}", {{"x", 1}}), "[inc x=1 loopvar=7]");
}

TEST(JinjaInclude, IgnoreMissingListsAndWithoutContext) {
  Environment env = lenient();
  env.add_template("f", "F");
  env.add_template("ctx", "[{{ x }}{{ y }}]");
  EXPECT_EQ(render(env, "{% include 'missing' ignore missing %}ok"), "ok");
  EXPECT_EQ(render(env, "{% include ['nope', 'f'] %}"), "F");
  EXPECT_EQ(render(env, "{% set y = 5 %}{% include 'ctx' without context %}", {{"x", 1}}), "[]");
  EXPECT_THROW(render(env, "{% include 'nope' %}"), SourceError);
}

TEST(JinjaInclude, AssignmentsDoNotLeakBack) {
  Environment env = lenient();
  env.add_template("f", "{% set z = 1 %}");
  EXPECT_EQ(render(env, "{% include 'f' %}[{{ z }}]"), "[]");
}

TEST(JinjaImport, IsWithoutContextByDefault) {
  Environment env = lenient();
  env.add_template("m", "{% macro show() %}x={{ x }}{% endmacro %}{% set exported = 42 %}");
  EXPECT_EQ(render(env, "{% import 'm' as m %}<{{ m.show() }}>{{ m.exported }}", {{"x", 1}}), "<x=>42");
  EXPECT_EQ(render(env, "{% import 'm' as m with context %}<{{ m.show() }}>", {{"x", 1}}), "<x=1>");
  EXPECT_EQ(render(env, "{% from 'm' import show %}<{{ show() }}>", {{"x", 1}}), "<x=>");
  EXPECT_EQ(render(env, "{% from 'm' import show as s, exported with context %}<{{ s() }}{{ exported }}>",
                   {{"x", 1}}),
            "<x=142>");
}

TEST(JinjaImport, CallBlockOnImportedMacro) {
  Environment env = lenient();
  env.add_template("m", "{% macro w() %}<{{ caller() }}>{% endmacro %}");
  EXPECT_EQ(render(env, "{% import 'm' as m %}{% call m.w() %}in{% endcall %}"), "<in>");
}

TEST(JinjaExtends, BlocksSuperAndSelf) {
  Environment env = lenient();
  env.add_template("base", "A{% block b %}base{% endblock %}B");
  env.add_template("mid", "{% extends 'base' %}{% block b %}M{{ super() }}{% endblock %}");
  env.add_template("self", "{% block a %}{{ x }}{% endblock %}|{{ self.a() }}");
  EXPECT_EQ(render(env, "{% extends 'base' %}{% block b %}child{% endblock %}"), "AchildB");
  EXPECT_EQ(render(env, "{% extends 'base' %}{% block b %}[{{ super() }}]{% endblock %}"), "A[base]B");
  EXPECT_EQ(render(env, "{% extends 'mid' %}{% block b %}C{{ super() }}{% endblock %}"), "ACMbaseB");
  EXPECT_EQ(render(env, "{% extends 'self' %}", {{"x", 2}}), "2|2");
}

TEST(JinjaExtends, ChildTopLevelRunsButPrintsNothing) {
  Environment env = lenient();
  env.add_template("base", "A{% block b %}{% endblock %}{{ v }}");
  EXPECT_EQ(render(env, "{% extends 'base' %}{% set v = 3 %}ignored{% block b %}{{ v }}{% endblock %}"), "A33");
}

TEST(JinjaExtends, BlocksSeeOnlyTheContextUnlessScoped) {
  Environment env = lenient();
  EXPECT_EQ(render(env, "{% for i in [1,2] %}{% block a %}{{ i }}{% endblock %}{% endfor %}"), "");
  EXPECT_EQ(render(env, "{% for i in [1,2] %}{% block a scoped %}{{ i }}{% endblock %}{% endfor %}"), "12");
}

TEST(JinjaExtends, RequiredBlockMustBeOverridden) {
  Environment env = lenient();
  env.add_template("base", "{% block b required %}{% endblock %}");
  EXPECT_EQ(render(env, "{% extends 'base' %}{% block b %}X{% endblock %}"), "X");
  EXPECT_THROW(render(env, "{% include 'base' %}"), SourceError);
}

TEST(JinjaEnvironment, RendersFilesFromSearchPathInOrder) {
  gkebuild::testing::TempDir temp;
  const auto& dir = temp.path();
  std::filesystem::create_directories(dir / "first");
  std::filesystem::create_directories(dir / "second/sub");
  std::ofstream(dir / "second/sub/page.j2") << "{% include 'part.j2' %}:{{ name }}\n";
  std::ofstream(dir / "second/part.j2") << "second";
  std::ofstream(dir / "first/part.j2") << "first";
  Environment env;
  env.add_search_path(dir / "first");
  env.add_search_path(dir / "second");
  EXPECT_EQ(env.render_file("sub/page.j2", {{"name", "x"}}), "first:x");
  EXPECT_THROW(env.render_file("../second/part.j2", Json::object()), SourceError);
  EXPECT_THROW(env.render_file("none.j2", Json::object()), SourceError);
}

TEST(JinjaEnvironment, RegisteredTemplatesWinAndRenderRepeatedly) {
  Environment env;
  env.add_template("t", "{% for i in items %}{{ i }},{% endfor %}");
  Json context = {{"items", {1, 2, 3}}};
  std::string first = env.render_file("t", context);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(env.render_file("t", context), first);
  EXPECT_EQ(first, "1,2,3,");
}

}  // namespace
}  // namespace gkebuild::jinja
