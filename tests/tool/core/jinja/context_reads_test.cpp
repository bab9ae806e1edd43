// context_reads: the context variables a template reads, beside Python Jinja2's
// jinja2.meta.find_undeclared_variables for the same templates, and the keys read of each.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/common/run.h"
#include "tests/common/temp_dir.h"
#include "tool/core/jinja/environment.h"

namespace gkebuild::jinja {
namespace {

using nlohmann::json;

std::set<std::string> names_of(Environment& env, const std::string& source) {
  const auto reads = env.context_reads_of_string(source);
  return {reads.names.begin(), reads.names.end()};
}

// Templates whose reads Jinja2 answers the same way: locals of loops, macros, set, with,
// namespaces, call blocks, filters, tests and calls.
const std::vector<std::string> kTemplates = {
    "{{ lr }} {{ seed }}",
    "{% if x %}{% set a = 1 %}{% endif %}{{ a }}",
    "{% set a = 1 %}{{ a }}{{ b.c }}",
    "{% for i in items if i > low %}{{ i }}{{ loop.index }}{% else %}{{ none_left }}{% endfor %}{{ i }}",
    "{% macro m(p, q=d) %}{{ p }}{{ r }}{{ caller() }}{% endmacro %}{{ m(arg) }}",
    "{% with a = b %}{{ a }}{{ c }}{% endwith %}",
    "{{ values['x'] }}{{ x[y] }}{{ z[1:n] }}",
    "{% set ns = namespace(a=1) %}{% set ns.a = z %}{{ ns.a }}",
    "{{ a | default(b) | join(sep) }}{{ c is divisibleby(d) }}{{ e if f else g }}{{ -h }}{{ i ~ j }}",
    "{% call(user) lister(users) %}{{ user }}{{ extra }}{% endcall %}",
    "{% filter indent(width) %}{{ body }}{% endfilter %}",
    "{% set block_text %}{{ inner }}{% endset %}{{ block_text }}",
    "{{ {'k': v, key: 1} }}{{ [p, q] }}{{ (s, t) }}{{ u in w }}{{ not flag }}",
};

TEST(ContextReadsPeer, SameVariablesAsJinja2FindUndeclaredVariables) {
  json sources = kTemplates;
  testing::TempDir dir;
  const auto path = dir.write("templates.json", sources.dump());
  const auto python = testing::run_command(
      "python3 -c 'import json, sys, jinja2, jinja2.meta as m; e = jinja2.Environment(); "
      "print(json.dumps([sorted(m.find_undeclared_variables(e.parse(t))) for t in json.load(open(sys.argv[1]))]))' " +
      testing::shell_quoted(path.string()));
  ASSERT_EQ(python.exit_code, 0) << python.err;
  const json expected = json::parse(python.out);
  Environment env;
  for (std::size_t i = 0; i < kTemplates.size(); ++i) {
    std::set<std::string> theirs = expected[i].get<std::set<std::string>>();
    std::set<std::string> ours = names_of(env, kTemplates[i]);
    ours.erase("namespace");  // a global: Jinja2 leaves globals out
    EXPECT_EQ(ours, theirs) << kTemplates[i];
  }
}

TEST(ContextReads, KeysOfAVariableAndWholeReads) {
  Environment env;
  auto reads = env.context_reads_of_string("{{ values.lr }}{{ values['epochs'] }}{{ point.n }}");
  EXPECT_TRUE(reads.reads_key("values", "lr"));
  EXPECT_TRUE(reads.reads_key("values", "epochs"));
  EXPECT_FALSE(reads.reads_key("values", "batch"));
  EXPECT_FALSE(reads.reads_key("point", "lr"));
  EXPECT_TRUE(reads.whole.empty());
  // Printed whole, passed on, a computed key or a dict method: any key may be read.
  for (const std::string source : {"{{ values | tojson }}", "{{ f(values) }}", "{{ values[name] }}",
                                   "{{ values.get('batch') }}", "{% for k in values %}{% endfor %}"}) {
    reads = env.context_reads_of_string(source);
    EXPECT_TRUE(reads.reads_key("values", "batch")) << source;
  }
  // A local that shadows the variable reads nothing of the context's.
  reads = env.context_reads_of_string("{% for values in lists %}{{ values.batch }}{% endfor %}");
  EXPECT_FALSE(reads.reads("values"));
}

TEST(ContextReads, FollowsIncludesExtendsAndImportsWithContext) {
  Environment env;
  env.add_template("part.j2", "{{ from_part }}{% include 'part.j2' %}");  // includes itself: walked once
  env.add_template("base.j2", "{% block b %}{{ from_base }}{% endblock %}");
  env.add_template("macros.j2", "{% macro m() %}{{ from_macros }}{% endmacro %}");
  env.add_template("main.j2",
                   "{% extends 'base.j2' %}{% block b %}{{ own }}{% include 'part.j2' %}"
                   "{% import 'macros.j2' as with_it with context %}{% import 'macros.j2' as without %}{% endblock %}");
  const auto reads = env.context_reads("main.j2");
  for (const char* name : {"own", "from_part", "from_base", "from_macros"}) EXPECT_TRUE(reads.reads(name)) << name;
  EXPECT_FALSE(reads.unknown);
  // A computed template name may read anything.
  EXPECT_TRUE(env.context_reads_of_string("{% include which %}").reads("anything"));
}

}  // namespace
}  // namespace gkebuild::jinja
