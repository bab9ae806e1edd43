// Errors name the template, line and column and show the line with a caret.
#include <gtest/gtest.h>

#include "base/source_error.h"
#include "tool/core/jinja/environment.h"
#include "tool/core/jinja/errors.h"

namespace gkebuild::jinja {
namespace {

using Json = nlohmann::ordered_json;

struct Failure {
  SourceLocation where;
  std::string message;
  std::string text;
};

Failure fail(const std::string& tmpl, UndefinedMode mode = UndefinedMode::Strict, Environment* env_in = nullptr) {
  Options options;
  options.undefined = mode;
  Environment local(options);
  Environment& env = env_in ? *env_in : local;
  try {
    env.render_string(tmpl, Json::object(), "page.j2");
  } catch (const SourceError& error) {
    return {error.where(), error.message(), error.what()};
  }
  ADD_FAILURE() << "no error for: " << tmpl;
  return {};
}

TEST(JinjaErrors, UndefinedNamePointsAtTheName) {
  Failure f = fail("line1\n{{ x.y.z }}");
  EXPECT_EQ(f.where.file, "page.j2");
  EXPECT_EQ(f.where.line, 2);
  EXPECT_EQ(f.where.column, 4);
  EXPECT_EQ(f.message, "'x' is undefined");
  EXPECT_EQ(f.text, "page.j2:2:4: error: 'x' is undefined\n  {{ x.y.z }}\n     ^");
}

TEST(JinjaErrors, StrictUndefinedOnPrintAndLenientOnAttributeOfUndefined) {
  EXPECT_EQ(fail("{{ x }}").message, "'x' is undefined");
  EXPECT_EQ(fail("[{{ missing.attr }}]", UndefinedMode::Lenient).message, "'missing' is undefined");
  EXPECT_EQ(fail("{{ d.k }}").message, "'d' is undefined");
}

TEST(JinjaErrors, TypeErrorsUsePythonWording) {
  Failure f = fail("a\n  {{ 1 + 'a' }}");
  EXPECT_EQ(f.message, "unsupported operand type(s) for +: 'int' and 'str'");
  EXPECT_EQ(f.where.line, 2);
  EXPECT_EQ(fail("{{ 'a' + 1 }}").message, "can only concatenate str (not \"int\") to str");
  EXPECT_EQ(fail("{{ [1, 'a'] | sort }}").message, "'<' not supported between instances of 'str' and 'int'");
  EXPECT_EQ(fail("{{ 1 / 0 }}").message, "division by zero");
}

TEST(JinjaErrors, DictGrowingUnderItsItemsLoopIsPythonsRuntimeError) {
  // `for k, v in d.items()` reads the dict in place: a body that adds a key is refused as
  // Python refuses it, one that changes a value shows the new value to later steps.
  EXPECT_EQ(fail("{% set d = {'a': 1, 'b': 2} %}{% for k, v in d.items() %}{% set _ = d.update({k + k: v}) %}{% endfor %}")
                .message,
            "dictionary changed size during iteration");
  Environment env{Options{}};
  EXPECT_EQ(env.render_string("{% set d = {'a': 1, 'b': 2} %}{% for k, v in d.items() %}{% set _ = d.update({'b': 5}) %}"
                              "{{ k }}={{ v }};{% endfor %}",
                              Json::object(), "page.j2"),
            "a=1;b=5;");
}

TEST(JinjaErrors, UnknownFiltersAndTestsFailAtParseTime) {
  // The filter sits in a branch that never runs: still an error, as in Jinja2.
  Failure f = fail("{% if false %}\n{{ i | nosuch }}{% endif %}");
  EXPECT_EQ(f.message, "No filter named 'nosuch'.");
  EXPECT_EQ(f.where.line, 2);
  EXPECT_EQ(f.where.column, 8);
  EXPECT_EQ(fail("{{ 1 is nosuch }}").message, "No test named 'nosuch'.");
}

TEST(JinjaErrors, SyntaxErrorsMatchJinjaMessages) {
  EXPECT_EQ(fail("{% if x %}\nabc").message,
            "Unexpected end of template. Jinja was looking for the following tags: 'elif' or 'else' or "
            "'endif'. The innermost block that needs to be closed is 'if'.");
  EXPECT_EQ(fail("x {% foo %}").message, "Encountered unknown tag 'foo'.");
  Failure paren = fail("{{ (1 }}");
  EXPECT_EQ(paren.message, "unexpected '}', expected ')'");
  EXPECT_EQ(paren.where.column, 7);
  EXPECT_EQ(fail("{# unclosed").message, "Missing end of comment tag");
  EXPECT_EQ(fail("{{ 1 + }}").message, "unexpected 'end of print statement'");
}

TEST(JinjaErrors, IncludeCycleNamesTheChain) {
  Environment env;
  env.add_template("a", "{% include 'b' %}");
  env.add_template("b", "x\n{% include 'a' %}");
  Failure f = fail("{% include 'a' %}", UndefinedMode::Strict, &env);
  EXPECT_NE(f.message.find("include cycle: b -> a -> b"), std::string::npos) << f.message;
}

TEST(JinjaErrors, MissingTemplateAndErrorsInsideIncludes) {
  EXPECT_NE(fail("{% include 'nope' %}").message.find("template 'nope' not found"), std::string::npos);
  Environment env;
  env.add_template("inner.j2", "ok\n{{ 1 + none }}");
  Failure f = fail("{% include 'inner.j2' %}", UndefinedMode::Strict, &env);
  EXPECT_EQ(f.where.file, "inner.j2");
  EXPECT_EQ(f.where.line, 2);
}

TEST(JinjaErrors, IntegersBeyond64BitsAreReported) {
  EXPECT_NE(fail("{{ 2 ** 64 }}").message.find("64-bit"), std::string::npos);
  EXPECT_NE(fail("{{ 100000000000000000000 }}").message.find("64-bit"), std::string::npos);
  // Two integers' +, - and * are worked out in place; an overflow still goes to the refusal.
  for (const char* tmpl : {"{% set n = 9223372036854775807 %}{{ n + 1 }}", "{% set n = -9223372036854775807 %}{{ n - 2 }}",
                           "{% set n = 4294967296 %}{{ n * n }}"})
    EXPECT_NE(fail(tmpl).message.find("64-bit"), std::string::npos) << tmpl;
}

// Errors carry the kind that the conformance suite compares with Jinja2's exception class.
TemplateErrorKind kind_of(const std::string& tmpl, UndefinedMode mode = UndefinedMode::Strict) {
  Options options;
  options.undefined = mode;
  Environment env(options);
  env.add_template("broken.j2", "{% if %}");
  try {
    env.render_string(tmpl, Json::object(), "page.j2");
  } catch (const TemplateError& error) {
    return error.template_kind();
  }
  ADD_FAILURE() << "no template error for: " << tmpl;
  return TemplateErrorKind::Runtime;
}

TEST(JinjaErrors, KindsMatchJinja2ExceptionClasses) {
  EXPECT_EQ(kind_of("{% for x in %}"), TemplateErrorKind::Syntax);
  EXPECT_EQ(kind_of("{{ x | nosuch }}"), TemplateErrorKind::Syntax);
  EXPECT_EQ(kind_of("{% include 'broken.j2' %}"), TemplateErrorKind::Syntax);
  EXPECT_EQ(kind_of("{{ x }}"), TemplateErrorKind::Undefined);
  EXPECT_EQ(kind_of("{{ missing < 1 }}", UndefinedMode::Lenient), TemplateErrorKind::Undefined);
  EXPECT_EQ(kind_of("{{ missing | dictsort }}", UndefinedMode::Lenient), TemplateErrorKind::Undefined);
  EXPECT_EQ(kind_of("{% include 'nowhere.j2' %}"), TemplateErrorKind::NotFound);
  EXPECT_EQ(kind_of("{{ 1 / 0 }}"), TemplateErrorKind::Runtime);
  EXPECT_EQ(kind_of("{{ 1 + 'a' }}"), TemplateErrorKind::Runtime);
}

}  // namespace
}  // namespace gkebuild::jinja
