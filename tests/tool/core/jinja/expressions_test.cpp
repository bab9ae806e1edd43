// Literals, printing, operators, lookups, methods and Undefined, checked against Jinja2.
#include "jinja_cases.h"

namespace gkebuild::jinja::testing {
namespace {

TEST(JinjaExpressions, MatchesJinja2) {
  static const Case cases[] = {
      // literals and printing
      {R"j({{ 1.0 }}|{{ 0.1 + 0.2 }}|{{ 1e3 }}|{{ 1_000 }}|{{ 0x10 }}|{{ 0o10 }}|{{ 0b11 }}|{{ 1_000.5 }}|{{ 1E3 }})j", R"j({})j", R"j(1.0|0.30000000000000004|1000.0|1000|16|8|3|1000.5|1000.0)j", {false, false, false, false}},
      {R"j({{ 1e16 }}|{{ 1e15 }}|{{ 0.0001 }}|{{ 0.00001 }}|{{ -0.0 }}|{{ 1.5e-10 }}|{{ 2.5e300 }})j", R"j({})j", R"j(1e+16|1000000000000000.0|0.0001|1e-05|-0.0|1.5e-10|2.5e+300)j", {false, false, false, false}},
      {R"j({{ x }}|{{ y }}|{{ z }})j", R"j({"x": 1e+20, "y": 1e-07, "z": 1.0})j", R"j(1e+20|1e-07|1.0)j", {false, false, false, false}},
      {R"j({{ none }}|{{ None }}|{{ True }}|{{ false }})j", R"j({})j", R"j(None|None|True|False)j", {false, false, false, false}},
      {R"j({{ x }})j", R"j({"x": [1, "a", true, null]})j", R"j([1, 'a', True, None])j", {false, false, false, false}},
      {R"j({{ x }})j", R"j({"x": {"a": [1, {"b": null}], "c": "it's"}})j", R"j({'a': [1, {'b': None}], 'c': "it's"})j", {false, false, false, false}},
      {R"j({{ ["it's", 'a"b', 'c\nd', 'é', '\u2028', '\x00'] }})j", R"j({})j", R"j(["it's", 'a"b', 'c\nd', 'é', '\u2028', '\x00'])j", {false, false, false, false}},
      {R"j({{ {'a': [1, (2, 3)], 1: none, 1.5: 'x'} }})j", R"j({})j", R"j({'a': [1, (2, 3)], 1: None, 1.5: 'x'})j", {false, false, false, false}},
      {R"j({{ (1, 'a') }}|{{ ((1,),) }}|{{ 1, 2 }}|{{ () }})j", R"j({})j", R"j((1, 'a')|((1,),)|(1, 2)|())j", {false, false, false, false}},
      {R"j({{ 'a' 'b' }}|{{ "x\u00e9\x41\101" }}|{{ 'a\qb' }}|{{ 'a\nb\tc\'"' }})j", R"j({})j", "ab|x\303\251AA|a\\qb|a\nb\011c'\"", {false, false, false, false}},
      // arithmetic with Python semantics
      {R"j({{ 7 / 2 }}|{{ 4 / 2 }}|{{ 7 // 2 }}|{{ -7 // 2 }}|{{ -7 % 3 }}|{{ -7 % 2 }}|{{ 2 ** 10 }}|{{ 2 ** -1 }})j", R"j({})j", R"j(3.5|2.0|3|-4|2|1|1024|0.5)j", {false, false, false, false}},
      // two integers (worked out in place) beside the cases binary_op and compare_op keep
      {R"j({% set n = 7 %}{{ n % -3 }}|{{ 0 % 5 }}|{{ n * 4 - 5 }}|{{ 1 < 2 < 3 }}|{{ 1 < 3 < 2 }}|{{ n == 7.0 }}|{{ true + n }}|{{ n != n }}|{{ -n % 3 }}|{{ 1 in [n, 1] }})j", R"j({})j", R"j(-2|0|23|True|False|True|8|False|2|True)j", {false, false, false, false}},
      {R"j({{ -7.5 % 2 }}|{{ 7.5 % -2 }}|{{ -7 // 2.0 }}|{{ 7.5 // 2 }}|{{ 2.0 ** 3 }}|{{ 10 % 3.5 }}|{{ 1 + 1.5 }})j", R"j({})j", R"j(0.5|-0.5|-4.0|3.0|8.0|3.0|2.5)j", {false, false, false, false}},
      {R"j({{ 2**3**2 }}|{{ -2**2 }}|{{ -1 - -2 }}|{{ 5 - 3 - 1 }}|{{ 2 * 3 % 4 }}|{{ 1 + 2 * 3 }}|{{ (1 + 2) * 3 }}|{{ 10 / 4 * 2 }})j", R"j({})j", R"j(64|4|1|1|2|7|9|5.0)j", {false, false, false, false}},
      {R"j({{ 'ab' * 3 }}|{{ 3 * 'ab' }}|{{ [1] * 2 }}|{{ [1] + [2] }}|{{ (1,) + (2,) }})j", R"j({})j", R"j(ababab|ababab|[1, 1]|[1, 2]|(1, 2))j", {false, false, false, false}},
      {R"j({{ 'a' ~ 1 ~ 1.5 ~ true ~ none }})j", R"j({})j", R"j(a11.5TrueNone)j", {false, false, false, false}},
      {R"j({{ x-1 }}|{{ x * 1.5 }}|{{ x / 3 }})j", R"j({"x": 9})j", R"j(8|13.5|3.0)j", {false, false, false, false}},
      // logic, comparisons and membership
      {R"j({{ 'a' and 'b' }}|{{ '' or 'c' }}|{{ not 1 == 2 }}|{{ not 'a' }}|{{ 1 and 0 or 5 }})j", R"j({})j", R"j(b|c|True|False|5)j", {false, false, false, false}},
      {R"j({{ 1 < 2 < 3 }}|{{ 3 > 2 > 2 }}|{{ 1 == 1.0 }}|{{ '1' == 1 }}|{{ 1 == true }}|{{ 0 == false }})j", R"j({})j", R"j(True|False|True|False|True|True)j", {false, false, false, false}},
      {R"j({{ 1 in x }}|{{ 'a' in 'cat' }}|{{ 'k' in d }}|{{ 5 not in x }}|{{ '' in 'abc' }}|{{ 1 in {'1': 1} }})j", R"j({"x": [1], "d": {"k": 1}})j", R"j(True|True|True|True|True|False)j", {false, false, false, false}},
      {R"j({{ 'y' if x else 'n' }}|[{{ 'y' if not x }}]|{{ 'a' if 0 else 'b' if 0 else 'c' }})j", R"j({"x": 1})j", R"j(y|[]|c)j", {false, false, false, false}},
      // truthiness
      {R"j({% if a %}T{% else %}F{% endif %}{% if b %}T{% else %}F{% endif %}{% if c %}T{% else %}F{% endif %}{% if d %}T{% else %}F{% endif %}{% if e %}T{% else %}F{% endif %})j", R"j({"a": {}, "b": "", "c": "false", "d": 0.0, "e": [0]})j", R"j(FFTFT)j", {false, false, false, false}},
      // attribute and item lookup, slices
      {R"j({{ x[0] }}|{{ x[-1] }}|{{ x.0 }}|{{ x[::-1] }}|{{ x[1:] }})j", R"j({"x": [1, 2, 3]})j", R"j(1|3|1|[3, 2, 1]|[2, 3])j", {false, false, false, false}},
      {R"j({{ 'abc'[1] }}|{{ 'abc'[-1] }}|{{ 'abcdef'[1:4] }}|{{ 'abcdef'[::2] }}|{{ 'abcdef'[-2:] }}|{{ 'abcdef'[:-2] }}|{{ 'abc'[::-1] }})j", R"j({})j", R"j(b|c|bcd|ace|ef|abcd|cba)j", {false, false, false, false}},
      {R"j({{ x['a'] }}|{{ x.a }}|{{ x['items'] }}|{{ x.get('items') }}|{{ x.get('q', 'z') }})j", R"j({"x": {"a": 1, "items": 5}})j", R"j(1|1|5|5|z)j", {false, false, false, false}},
      {R"j([{{ x.missing }}]|[{{ y.a }}]|[{{ missing }}])j", R"j({"x": {}, "y": [1]})j", R"j([]|[]|[])j", {false, false, false, false}},
      {R"j({{ {'a': {'b': 1}}['a']['b'] }}|{{ [1, 2, ][1] }}|{{ {'a': 1, }['a'] }})j", R"j({})j", R"j(1|2|1)j", {false, false, false, false}},
      // methods of str, dict and list
      {R"j({{ 'Hello World'.lower() }}|{{ 'a-b-c'.split('-', 1) }}|{{ 'a-b-c'.rsplit('-', 1) }}|{{ '  a  b '.split() }}|{{ 'x'.zfill(3) }}|{{ 'abcb'.count('b') }}|{{ 'abc'.find('c') }}|{{ 'a\nb'.splitlines() }})j", R"j({})j", R"j(hello world|['a', 'b-c']|['a-b', 'c']|['a', 'b']|00x|2|2|['a', 'b'])j", {false, false, false, false}},
      {R"j({{ 'hello world'.title() }}|{{ "they're".title() }}|{{ 'x'.endswith(('a','x')) }}|{{ ', '.join(['a','b']) }}|{{ 'abc'.replace('b', 'x') }}|{{ ' x '.strip() }}|{{ 'xxaxx'.strip('x') }})j", R"j({})j", R"j(Hello World|They'Re|True|a, b|axc|x|a)j", {false, false, false, false}},
      {R"j({{ '{0}-{1}'.format('a', 'b') }}|{{ '{:>5}'.format('a') }}|{{ '{:05.1f}'.format(3.14159) }}|{{ '{name}!'.format(name='x') }}|{{ '{:,}'.format(1234567) }})j", R"j({})j", R"j(a-b|    a|003.1|x!|1,234,567)j", {false, false, false, false}},
      {R"j({{ x.keys() | list }}|{{ x.values() | list }}|{{ x.items() | list }}|{{ [1, 2, 1].count(1) }}|{{ [1, 2].index(2) }})j", R"j({"x": {"a": 1, "b": 2}})j", R"j(['a', 'b']|[1, 2]|[('a', 1), ('b', 2)]|2|1)j", {false, false, false, false}},
      // Unicode
      {R"j({{ 'straße' | upper }}|{{ 'héllo' | length }}|{{ 'é😀'[1] }}|{{ 'é😀' | list }}|{{ 'é😀' | reverse }})j", R"j({})j", R"j(STRASSE|5|😀|['é', '😀']|😀é)j", {false, false, false, false}},
      // Undefined, lenient and strict
      {R"j({{ missing is defined }}|{{ x is defined }}|{{ missing | default('d') }}|{{ missing | d('d') }})j", R"j({"x": 1})j", R"j(False|True|d|d)j", {false, false, false, false}},
      {R"j({{ x | default('d') }}|{{ y | default('d', true) }}|{{ z | default('d') }})j", R"j({"x": null, "y": "", "z": false})j", R"j(None|d|False)j", {false, false, false, false}},
      {R"j({{ x | default('d') }}|{{ x is defined }}|{{ d.missing | default('d') }}|[{{ 'y' if false }}])j", R"j({"d": {}})j", R"j(d|False|d|[])j", {false, false, false, true}},
      {R"j({{ x ~ 'a' }}|{{ x | length }}|{{ x | list }}|{{ x == y }}|{% for i in x %}a{% else %}e{% endfor %})j", R"j({})j", R"j(a|0|[]|True|e)j", {false, false, false, false}},
  };
  expect_cases(cases);
}

}  // namespace
}  // namespace gkebuild::jinja::testing
