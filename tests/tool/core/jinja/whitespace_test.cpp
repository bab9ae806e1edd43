// Whitespace control: -/+ markers, trim_blocks, lstrip_blocks, newlines, raw blocks.
#include "jinja_cases.h"

namespace gkebuild::jinja::testing {
namespace {

TEST(JinjaWhitespace, MatchesJinja2) {
  static const Case cases[] = {
      {R"j(x
)j", R"j({})j", R"j(x)j", {false, false, false, false}},
      {R"j(x

)j", R"j({})j", R"j(x
)j", {false, false, false, false}},
      {R"j(x
)j", R"j({})j", R"j(x
)j", {false, false, true, false}},
      {R"j(x{% if true %}y{% endif %}
)j", R"j({})j", R"j(xy)j", {false, false, false, false}},
      {R"j(a
{% if true %}
b
{% endif %}
c
)j", R"j({})j", R"j(a

b

c)j", {false, false, false, false}},
      {R"j(a
{% if true %}
b
{% endif %}
c
)j", R"j({})j", R"j(a
b
c)j", {true, false, false, false}},
      {R"j(a
  {% if true %}
  b
  {% endif %}
c
)j", R"j({})j", R"j(a

  b

c)j", {false, true, false, false}},
      {R"j(a
  {% if true %}
  b
  {% endif %}
c
)j", R"j({})j", R"j(a
  b
c)j", {true, true, false, false}},
      {R"j(a

  {{- 'x' }})j", R"j({})j", R"j(ax)j", {false, false, false, false}},
      {R"j(Hello   {{- 'x' }})j", R"j({})j", R"j(Hellox)j", {false, false, false, false}},
      {R"j({{ 'x' -}}  

  b)j", R"j({})j", R"j(xb)j", {false, false, false, false}},
      {R"j(a
  {%- if true -%}
  b
  {%- endif -%}
  c)j", R"j({})j", R"j(abc)j", {false, false, false, false}},
      {R"j(a{# c #}b{#- d -#} c)j", R"j({})j", R"j(abc)j", {false, false, false, false}},
      {R"j(a
  {# c #}
b)j", R"j({})j", R"j(a
b)j", {true, true, false, false}},
      {R"j(a
  {{ 'x' }}
b)j", R"j({})j", R"j(a
  x
b)j", {true, true, false, false}},
      {R"j(a
  {%+ if true %}x{% endif %})j", R"j({})j", R"j(a
  x)j", {false, true, false, false}},
      {"a\015\n{% if true %}\015\nb\015\n{% endif %}\015\n", R"j({})j", R"j(a
b
)j", {true, false, false, false}},
      {"\011{% if true %}x{% endif %}", R"j({})j", R"j(x)j", {false, true, false, false}},
      {R"j({% if true %}  
x{% endif %})j", R"j({})j", R"j(  
x)j", {true, false, false, false}},
      {R"j({% if true +%}
x{% endif %})j", R"j({})j", R"j(
x)j", {true, false, false, false}},
      {R"j(ab {% if true %}x{% endif %})j", R"j({})j", R"j(ab x)j", {false, true, false, false}},
      {"a\302\240\343\200\200{%- if true %}x{% endif %}", R"j({})j", R"j(ax)j", {false, false, false, false}},
      {"{{ 'x' -}}\302\240\343\200\200y", R"j({})j", R"j(xy)j", {false, false, false, false}},
      {R"j({{ x }}
)j", R"j({"x": "a\r\nb"})j", "a\015\nb", {false, false, false, false}},
      {"a\015b\015\nc\n", R"j({})j", R"j(a
b
c
)j", {false, false, true, false}},
      {R"j({% if true %}
{% endif %}
)j", R"j({})j", R"j()j", {true, false, true, false}},
      {R"j(  {# c #}  
b)j", R"j({})j", R"j(  
b)j", {true, true, false, false}},
      {R"j({#- c -#}  
  b)j", R"j({})j", R"j(b)j", {false, false, false, false}},
      {R"j({# c +#}
b)j", R"j({})j", R"j(
b)j", {true, false, false, false}},
      {R"j(  {%- if true %}x{% endif %})j", R"j({})j", R"j(x)j", {false, true, false, false}},
      {R"j({% for i in [1,2] %}
  {{ i }}
{% endfor %}
)j", R"j({})j", R"j(  1
  2
)j", {true, true, false, false}},
      {R"j({% for i in [1,2] -%}
  {{ i }}
{%- endfor %})j", R"j({})j", R"j(12)j", {false, false, false, false}},
      {R"j({{- 1 -}}|{{-1}}|{%-if true-%}x{%-endif-%})j", R"j({})j", R"j(1|1|x)j", {false, false, false, false}},
      {R"j({% raw %}{{ x }}{% endraw %}|a  {%- raw -%}  {{ x }}  {%- endraw -%}  b)j", R"j({})j", R"j({{ x }}|a{{ x }}b)j", {false, false, false, false}},
      {R"j({% raw %}
{{ x }}{% endraw %}
)j", R"j({})j", R"j(
{{ x }})j", {true, false, false, false}},
      {R"j(x
  {% raw %}x
  {% endraw %})j", R"j({})j", R"j(x
x
)j", {true, true, false, false}},
  };
  expect_cases(cases);
}

}  // namespace
}  // namespace gkebuild::jinja::testing
