// Hostile templates (issue 15): nesting, extends cycles and huge results end in a clear
// error with the template's position, never a stack overflow or gigabytes of memory.
#include <gtest/gtest.h>

#include <string>

#include "jinja/environment.h"
#include "jinja/errors.h"

namespace gkebuild::jinja {
namespace {

using Json = nlohmann::ordered_json;

std::string repeat(std::string_view text, size_t times) {
  std::string out;
  out.reserve(text.size() * times);
  for (size_t i = 0; i < times; ++i) out += text;
  return out;
}

// The error that rendering `source` as "hostile.j2" raises; fails the test if it renders.
TemplateError failure(const std::string& source, Environment* environment = nullptr) {
  Environment local;
  Environment& env = environment ? *environment : local;
  try {
    env.render_string(source, Json::object(), "hostile.j2");
  } catch (const TemplateError& error) {
    return error;
  }
  ADD_FAILURE() << "rendered without an error: " << source.substr(0, 80);
  return TemplateError(TemplateErrorKind::Runtime, {}, "");
}

TEST(JinjaLimits, TenThousandNestedParenthesesAreASyntaxError) {
  TemplateError error = failure("{{ " + repeat("(", 10000) + "1" + repeat(")", 10000) + " }}");
  EXPECT_EQ(error.template_kind(), TemplateErrorKind::Syntax);
  EXPECT_NE(error.message().find("nesting deeper than"), std::string::npos) << error.what();
  EXPECT_EQ(error.where().file, "hostile.j2");
  EXPECT_EQ(error.where().line, 1);
  EXPECT_GT(error.where().column, 3);
}

TEST(JinjaLimits, FiftyThousandNestedIfsAreASyntaxError) {
  TemplateError error = failure(repeat("{% if true %}\n", 50000) + "x" + repeat("{% endif %}", 50000));
  EXPECT_EQ(error.template_kind(), TemplateErrorKind::Syntax);
  EXPECT_NE(error.message().find("nesting deeper than"), std::string::npos) << error.what();
  EXPECT_GT(error.where().line, 100);
}

TEST(JinjaLimits, DeeplyNestedDictAndListLiteralsAreASyntaxError) {
  EXPECT_EQ(failure("{{ " + repeat("{'a': ", 20000) + "1" + repeat("}", 20000) + " }}").template_kind(), TemplateErrorKind::Syntax);
  EXPECT_EQ(failure("{{ " + repeat("[", 20000) + repeat("]", 20000) + " }}").template_kind(), TemplateErrorKind::Syntax);
}

TEST(JinjaLimits, LongOperatorAndFilterChainsAreASyntaxError) {
  // Left-nested trees: evaluating (and freeing) them recurses once per operator.
  EXPECT_EQ(failure("{{ 1" + repeat(" + 1", 100000) + " }}").template_kind(), TemplateErrorKind::Syntax);
  EXPECT_EQ(failure("{{ x" + repeat("|default(1)", 100000) + " }}").template_kind(), TemplateErrorKind::Syntax);
  EXPECT_EQ(failure("{{ " + repeat("not ", 100000) + "x }}").template_kind(), TemplateErrorKind::Syntax);
  EXPECT_EQ(failure("{{ " + repeat("-", 100000) + "1 }}").template_kind(), TemplateErrorKind::Syntax);
}

TEST(JinjaLimits, ModerateNestingStillRenders) {
  Environment env;
  EXPECT_EQ(env.render_string("{{ " + repeat("(", 100) + "1" + repeat(")", 100) + " }}", Json::object()), "1");
  EXPECT_EQ(env.render_string(repeat("{% if true %}", 100) + "x" + repeat("{% endif %}", 100), Json::object()), "x");
  EXPECT_EQ(env.render_string("{{ 0" + repeat(" + 1", 200) + " }}", Json::object()), "200");
}

TEST(JinjaLimits, ATemplateExtendingItselfIsACycleError) {
  Environment env;
  env.add_template("self.j2", "{% extends 'self.j2' %}{% block b %}x{% endblock %}");
  env.add_template("a.j2", "{% extends 'b.j2' %}");
  env.add_template("b.j2", "{% extends 'a.j2' %}");
  TemplateError self = failure("{% extends 'self.j2' %}", &env);
  EXPECT_NE(self.message().find("extends cycle: self.j2 -> self.j2"), std::string::npos) << self.what();
  TemplateError pair = failure("{% extends 'a.j2' %}", &env);
  EXPECT_NE(pair.message().find("extends cycle: a.j2 -> b.j2 -> a.j2"), std::string::npos) << pair.what();
}

TEST(JinjaLimits, HugeResultsAreRefusedBeforeTheyAreBuilt) {
  for (const char* source : {"{{ '%99999999999d'|format(1) }}", "{{ 'x'|center(10000000000) }}",
                             "{{ [1, 2] * 10000000000 }}", "{{ 'ab' * 10000000000 }}",
                             "{{ '{:>99999999999}'.format(1) }}", "{{ 'x'.ljust(10000000000) }}",
                             "{{ ('x' * 100000) | replace('', 'y' * 100000) }}",
                             "{{ range(1000000) | join('x' * 1000) }}",
                             "{{ ('x' * 1000).join(['y' * 1000] * 1000000) }}"}) {
    TemplateError error = failure(source);
    EXPECT_EQ(error.template_kind(), TemplateErrorKind::Runtime) << source;
    EXPECT_NE(error.message().find("MiB"), std::string::npos) << source << ": " << error.what();
    EXPECT_EQ(error.where().line, 1) << source;
  }
}

TEST(JinjaLimits, DeeplyNestedValuesBuiltAtRenderTimeAreFreedAndRefusedWhenWalked) {
  const std::string deep = "{% set ns = namespace(x=[]) %}{% for i in range(200000) %}"
                           "{% set ns.x = [ns.x] if i % 2 else {'k': ns.x} %}{% endfor %}";
  Environment env;
  // Freeing a 200,000-deep chain of lists and dicts must not recurse once per level.
  EXPECT_EQ(env.render_string(deep + "{{ ns.x | length }}", Json::object()), "1");
  for (const char* use : {"{{ ns.x }}", "{{ ns.x | tojson }}", "{{ ns.x == ns.x }}", "{{ ns.x | pprint }}"}) {
    TemplateError error = failure(deep + use);
    EXPECT_NE(error.message().find("nested deeper than"), std::string::npos) << use << ": " << error.what();
  }
}

TEST(JinjaLimits, AListThatContainsItselfIsAnErrorWhenPrinted) {
  TemplateError error = failure("{% set x = [] %}{{ x.append(x) }}{{ x }}");
  EXPECT_NE(error.message().find("nested deeper than"), std::string::npos) << error.what();
}

}  // namespace
}  // namespace gkebuild::jinja
