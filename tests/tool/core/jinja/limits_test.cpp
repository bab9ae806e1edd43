// Hostile templates (issue 15): nesting, extends cycles and huge results end in a clear
// error with the template's position, never a stack overflow or gigabytes of memory.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tool/core/jinja/environment.h"
#include "tool/core/jinja/errors.h"

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

// Issue 30: every operator, filter, method and global that makes a string or a list is held to
// the per-operation limit, before it builds (or while it builds) the result: one hostile
// template per maker, each error at the template's position. The list was made from the
// filter, method and global tables (filters_*.cpp, methods.cpp, globals.cpp) and the operators.
TEST(JinjaLimits, EveryMakerOfAStringOrAListIsHeldToTheLimit) {
  const std::string big = "{% set s = 'x' * 200000000 %}";       // 200 MB: under the limit
  const std::string lines = "{% set s = 'x\\n' * 20000000 %}";    // 40 MB of short lines
  const std::string words = "{% set s = 'x ' * 20000000 %}";      // 40 MB of words
  const std::string angles = "{% set s = '<' * 100000000 %}";     // 100 MB that escaping grows sixfold
  const std::string many = "{% set l = ['y' * 100000] * 5000 %}";  // 5,000 items, 500 MB as text
  const std::vector<std::string> sources = {
      big + "{{ (s ~ s ~ s) | length }}",                    // the reproducer
      big + "{{ (s + s) | length }}",                        // + on strings
      "{% set l = range(5000000) | list %}{{ (l + l) | length }}",  // + on lists
      big + "{{ s | list | length }}",                       // list
      big + "{{ s | map('upper') | list | length }}",        // map
      big + "{{ s | select | list | length }}",              // select (reject, selectattr … alike)
      big + "{{ s | reverse | length }}",                    // reverse
      big + "{{ s | batch(3) | list | length }}",            // batch
      "{{ [1] | batch(10000000000, 0) | list | length }}",   // batch's padding
      "{{ [1] | slice(10000000000) | list | length }}",      // slice
      big + "{{ s | unique | list | length }}",              // unique, sort, min, max
      many + "{{ l | join | length }}",                      // join
      many + "{{ l | string | length }}",                    // string (repr of a list)
      many + "{{ l | tojson | length }}",                    // tojson
      "{{ [1, 2] | tojson(10000000000) }}",                  // tojson's indent
      angles + "{{ s | escape | length }}",                  // escape, forceescape
      angles + "{{ s | tojson | length }}",                  // tojson's escapes
      angles + "{{ s | urlencode | length }}",               // urlencode
      many + "{{ l | pprint | length }}",                    // pprint
      many + "{{ l | toyaml | length }}",                    // toyaml
      angles + "{{ {'a': s} | xmlattr | length }}",          // xmlattr
      "{% set l = [range(3000000) | list] * 3 %}{{ l | sum(start=[]) | length }}",  // sum of lists
      lines + "{{ s | indent(100) | length }}",              // indent
      "{% set s = 'x\\r' * 20000000 %}{{ s | indent(100) | length }}",  // indent, other line breaks
      lines + "{{ s | wordwrap(1) | length }}",              // wordwrap
      "{{ 'ab ab' | wordwrap(1, wrapstring='x' * 200000000) | length }}",  // wordwrap's wrapstring
      big + "{{ s | replace('x', 'yy') | length }}",         // replace
      "{{ '%0300000000d' | format(1) }}",                    // format
      "{{ 'x' | center(300000000) }}",                       // center
      words + "{{ s.split() | length }}",                    // str.split
      "{% set s = ',' * 10000000 %}{{ s.split(',') | length }}",   // str.split(sep)
      "{% set s = ',' * 10000000 %}{{ s.rsplit(',') | length }}",  // str.rsplit(sep)
      lines + "{{ s.splitlines() | length }}",               // str.splitlines
      "{{ 'x'.zfill(10000000000) }}",                        // str.zfill
      many + "{{ ''.join(l) | length }}",                    // str.join
      "{% set l = range(5000000) | list %}{% set _ = l.extend(l) %}{{ l | length }}",  // list.extend
      "{{ lipsum(10000, max=100000) | length }}",            // lipsum
      big + "{% for c in s %}{% endfor %}",                  // a loop over a string's characters
  };
  for (const auto& source : sources) {
    TemplateError error = failure(source);
    EXPECT_EQ(error.template_kind(), TemplateErrorKind::Runtime) << source;
    EXPECT_NE(error.message().find("MiB"), std::string::npos) << source << ": " << error.what();
    EXPECT_EQ(error.where().file, "hostile.j2") << source;
    EXPECT_EQ(error.where().line, 1) << source;
    EXPECT_GT(error.where().column, 1) << source;
  }
}

// Issue 30: doubling a namespace attribute with ~, or a list with +, in a loop ended in
// std::bad_alloc without a position, or the out-of-memory killer.
TEST(JinjaLimits, DoublingInALoopEndsAtItsPosition) {
  for (const char* source :
       {"{% set ns = namespace(s='x') %}{% for i in range(64) %}\n{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
        "{% set ns = namespace(l=[1]) %}{% for i in range(64) %}\n{% set ns.l = ns.l + ns.l %}{% endfor %}"}) {
    TemplateError error = failure(source);
    EXPECT_NE(error.message().find("MiB"), std::string::npos) << source << ": " << error.what();
    EXPECT_EQ(error.where().line, 2) << source << ": " << error.what();
  }
}

TEST(JinjaLimits, AHugeRangeIsRefusedBeforeItIsMade) {
  for (const char* source : {"{{ range(10**9) | length }}", "{{ range(-(10**18), 10**18, 3) | length }}"}) {
    TemplateError error = failure(source);
    EXPECT_NE(error.message().find("range too big"), std::string::npos) << error.what();
  }
  Environment env;
  EXPECT_EQ(env.render_string("{{ range(10, -(10**18), -(10**17)) | list }}", Json::object()),
            "[10, -99999999999999990, -199999999999999990, -299999999999999990, -399999999999999990, "
            "-499999999999999990, -599999999999999990, -699999999999999990, -799999999999999990, "
            "-899999999999999990, -999999999999999990]");  // as Python's range
}

// Issue 30: many values, each small, that a render keeps: the memory budget ends the render at
// the operation that would pass it.
TEST(JinjaLimits, WhatARenderHoldsIsHeldToTheMemoryBudget) {
  for (const char* source :
       {"{% set l = [] %}{% for i in range(3000000) %}{% set _ = l.append('y' * 300) %}{% endfor %}",
        "{% set ns = namespace(l=[]) %}{% for i in range(3000) %}{% set ns.l = ns.l + ['y' * 200000] %}{% endfor %}",
        "{% set d = {} %}{% for i in range(3000) %}{% set _ = d.update({i: 'y' * 300000}) %}{% endfor %}"}) {
    TemplateError error = failure(source);
    EXPECT_NE(error.message().find("out of template memory"), std::string::npos) << source << ": " << error.what();
    EXPECT_EQ(error.where().line, 1) << source;
  }
  // Freed values are no longer counted: the same amount made and dropped many times renders.
  Environment env;
  EXPECT_EQ(env.render_string("{% for i in range(40) %}{% set s = 'y' * 100000000 %}{% endfor %}ok", Json::object()),
            "ok");
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
