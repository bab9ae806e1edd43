// if/for/set/with/macro/call/filter statements and globals, checked against Jinja2.
#include "jinja_cases.h"

namespace gkebuild::jinja::testing {
namespace {

TEST(JinjaStatements, MatchesJinja2) {
  static const Case cases[] = {
      // if / for
      {R"j({% if x == 1 %}a{% elif x == 2 %}b{% else %}c{% endif %})j", R"j({"x": 2})j", R"j(b)j", {false, false, false, false}},
      {R"j({% for i in x %}{{ loop.index }},{{ loop.index0 }},{{ loop.first }},{{ loop.last }},{{ loop.length }},{{ loop.revindex }},{{ loop.revindex0 }},{{ loop.depth }},{{ loop.depth0 }};{% endfor %})j", R"j({"x": [1, 2, 3]})j", R"j(1,0,True,False,3,3,2,1,0;2,1,False,False,3,2,1,1,0;3,2,False,True,3,1,0,1,0;)j", {false, false, false, false}},
      {R"j({% for i in x %}{{ loop.cycle('a','b','c') }}{{ loop.cycle('a','b','c') }};{% endfor %})j", R"j({"x": [1, 2, 3]})j", R"j(aa;bb;cc;)j", {false, false, false, false}},
      {R"j({% for i in x %}{{ loop.previtem }}-{{ loop.nextitem }};{% endfor %})j", R"j({"x": [1, 2, 3]})j", R"j(-2;1-3;2-;)j", {false, false, false, false}},
      {R"j({% for i in x %}{{ i }}{% else %}empty{% endfor %})j", R"j({"x": []})j", R"j(empty)j", {false, false, false, false}},
      {R"j({% for i in x if i > 1 %}{{ i }}{{ loop.index }}{% endfor %})j", R"j({"x": [1, 2, 3]})j", R"j(2132)j", {false, false, false, false}},
      {R"j({% for i in x if i > 5 %}{{ i }}{% else %}none{% endfor %})j", R"j({"x": [1, 2, 3]})j", R"j(none)j", {false, false, false, false}},
      {R"j({% for k, v in x.items() %}{{ k }}={{ v }};{% endfor %}{% for k in x %}{{ k }};{% endfor %})j", R"j({"x": {"b": 1, "a": 2}})j", R"j(b=1;a=2;b;a;)j", {false, false, false, false}},
      // `for … in d.items()` walks the pairs without building tuples, except where one is seen.
      {R"j({% for k, v in x.items() %}{{ loop.previtem if not loop.first }}{{ k }}{% endfor %}|{% for p in x.items() %}{{ p }}{% endfor %}|{% for k, v in x.items() if v > 1 %}{{ k }}{{ loop.length }}{% endfor %}|{% for (k, v) in {}.items() %}{% else %}none{% endfor %})j", R"j({"x": {"b": 1, "a": 2}})j", R"j(b('b', 1)a|('b', 1)('a', 2)|a1|none)j", {false, false, false, false}},
      {R"j({% for a, b in [(1, 2), (3, 4)] %}{{ a }}{{ b }}{% endfor %}|{% for c in 'ab' %}{{ c }};{% endfor %})j", R"j({})j", R"j(1234|a;b;)j", {false, false, false, false}},
      {R"j({% set y = 0 %}{% for i in x %}{% set y = i %}{% endfor %}{{ y }}|{% for i in x %}{% endfor %}[{{ i }}])j", R"j({"x": [1, 2]})j", R"j(0|[])j", {false, false, false, false}},
      {R"j({% set x = 1 %}{% for i in [1,2] %}{{ x }}{% set x = i + 5 %}{{ x }};{% endfor %}{{ x }})j", R"j({})j", R"j(16;17;1)j", {false, false, false, false}},
      {R"j({% for a in x %}{% for b in x %}{{ loop.index }}{% endfor %}{% endfor %})j", R"j({"x": [1, 2]})j", R"j(1212)j", {false, false, false, false}},
      {R"j({% for i in x %}{% if i == 2 %}{% continue %}{% endif %}{% if i == 4 %}{% break %}{% endif %}{{ i }}{% endfor %})j", R"j({"x": [1, 2, 3, 4, 5]})j", R"j(13)j", {false, false, false, false}},
      {R"j({% for i in [1,1,2] %}{% if loop.changed(i) %}{{ i }}{% endif %}{% endfor %})j", R"j({})j", R"j(12)j", {false, false, false, false}},
      {R"j({% for i in x recursive %}[{{ i.n }}{% if i.c %}{{ loop(i.c) }}{% endif %}@{{ loop.depth }}]{% endfor %})j", R"j({"x": [{"n": 1, "c": [{"n": 2, "c": [{"n": 3}]}]}, {"n": 4}]})j", R"j([1[2[3@3]@2]@1][4@1])j", {false, false, false, false}},
      // set, namespace, with
      {R"j({% set a, b = 1, 2 %}{{ a }}{{ b }}|{% set v %}a{{ 1 }}b{% endset %}[{{ v }}]|{% set x | upper %}ab{% endset %}{{ x }})j", R"j({})j", R"j(12|[a1b]|AB)j", {false, false, false, false}},
      {R"j({% set ns = namespace(c=0) %}{% for i in x %}{% set ns.c = ns.c + i %}{% endfor %}{{ ns.c }})j", R"j({"x": [1, 2, 3]})j", R"j(6)j", {false, false, false, false}},
      {R"j({% if true %}{% set z = 3 %}{% endif %}{{ z }})j", R"j({})j", R"j(3)j", {false, false, false, false}},
      {R"j({% with a = 1 %}{{ a }}{% endwith %}[{{ a }}]|{% with a = 1, b = 2 %}{{ a + b }}{% endwith %})j", R"j({})j", R"j(1[]|3)j", {false, false, false, false}},
      // macros and call blocks
      {R"j({% macro m(a, b='d') %}[{{ a }}{{ b }}]{% endmacro %}{{ m(1) }}{{ m(1, 2) }}{{ m(b=3, a=4) }})j", R"j({})j", R"j([1d][12][43])j", {false, false, false, false}},
      {R"j({% macro w() %}<{{ caller() }}>{% endmacro %}{% call w() %}in{% endcall %})j", R"j({})j", R"j(<in>)j", {false, false, false, false}},
      {R"j({% macro m() %}{{ caller(1) }}{% endmacro %}{% call(x) m() %}[{{ x }}]{% endcall %})j", R"j({})j", R"j([1])j", {false, false, false, false}},
      {R"j({% macro m() %}{{ varargs }}{{ kwargs }}{% endmacro %}{{ m(1, 2, k=3) }})j", R"j({})j", R"j((1, 2){'k': 3})j", {false, false, false, false}},
      {R"j({% macro m(a, b=a) %}{{ b }}{% endmacro %}{{ m(3) }})j", R"j({})j", R"j(3)j", {false, false, false, false}},
      {R"j({% set x = 1 %}{% macro m() %}{{ x }}{% endmacro %}{% set x = 2 %}{{ m() }})j", R"j({})j", R"j(2)j", {false, false, false, false}},
      {R"j({% macro outer() %}{% macro inner() %}i{% endmacro %}{{ inner() }}o{% endmacro %}{{ outer() }})j", R"j({})j", R"j(io)j", {false, false, false, false}},
      // filter blocks, globals
      {R"j({% filter upper %}abc{% endfilter %}|{% filter upper | replace('A', 'x') %}abc{% endfilter %})j", R"j({})j", R"j(ABC|xBC)j", {false, false, false, false}},
      {R"j({{ range(5) | list }}|{{ range(5, 0, -2) | list }}|{{ dict(a=1, b=2) }}|{{ dict([('a', 1)]) }})j", R"j({})j", R"j([0, 1, 2, 3, 4]|[5, 3, 1]|{'a': 1, 'b': 2}|{'a': 1})j", {false, false, false, false}},
      {R"j({% set c = cycler('a', 'b') %}{{ c.next() }}{{ c.next() }}{{ c.next() }}{{ c.current }}|{% set j = joiner('|') %}{% for i in [1,2,3] %}{{ j() }}{{ i }}{% endfor %})j", R"j({})j", R"j(abab|1|2|3)j", {false, false, false, false}},
      {R"j({% print 1, 2 %})j", R"j({})j", R"j(12)j", {false, false, false, false}},
  };
  expect_cases(cases);
}

}  // namespace
}  // namespace gkebuild::jinja::testing
