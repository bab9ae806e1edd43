// Loops rendered on several threads (tool/core/jinja/runtime/split_loop.cpp) give what one thread gives:
// the same text, the same error after the same text, and side effects made in order. Every
// loop of two items or more is split here, in blocks of one item, on three threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "method_examples.h"
#include "tool/core/jinja/environment.h"
#include "tool/core/jinja/errors.h"
#include "tool/core/jinja/values/json_document.h"

namespace gkebuild::jinja {
namespace {

using nlohmann::ordered_json;

struct Rendered {
  std::string text;   // the pieces given to the sink, in order, and what was left at the end
  std::string error;  // empty when the render succeeded
  size_t largest_piece = 0;
};

Rendered render_on(int threads, const std::string& tmpl, const ordered_json& context) {
  Options options;
  options.undefined = UndefinedMode::Strict;
  options.loop_threads = threads;
  options.split_loop_items = 2;
  Environment environment(options);
  environment.add_template("t.j2", tmpl);
  Rendered rendered;
  const OutputSink sink = [&rendered](std::string&& piece) {
    rendered.text += piece;
    rendered.largest_piece = std::max(rendered.largest_piece, piece.size());
  };
  try {
    environment.render_file("t.j2", json_document(context), sink);
  } catch (const TemplateError& error) {
    rendered.error = error.what();
  }
  return rendered;
}

// `count` records {"n": i, "name": "job-i", "tags": [...]}.
ordered_json records(int count) {
  ordered_json items = ordered_json::array();
  for (int i = 0; i < count; ++i)
    items.push_back({{"n", i}, {"name", "job-" + std::to_string(i)}, {"tags", {"a", i % 3 == 0 ? "b" : "c"}}});
  return {{"items", items}, {"title", "sweep"}};
}

void expect_same_as_one_thread(const std::string& tmpl, const ordered_json& context) {
  const Rendered one = render_on(1, tmpl, context);
  const Rendered split = render_on(3, tmpl, context);
  EXPECT_EQ(split.error, one.error) << tmpl;
  EXPECT_EQ(split.text.size(), one.text.size()) << tmpl;
  EXPECT_TRUE(split.text == one.text) << tmpl;
}

TEST(SplitLoop, GivesWhatOneThreadGives) {
  const std::string tmpl =
      "{{ title }}\n"
      "{% for job in items %}"
      "{% set label = job.name | upper %}"
      "{{ loop.index }}/{{ loop.length }} {{ loop.revindex0 }} {{ loop.first }} {{ loop.last }} "
      "{{ loop.cycle('odd', 'even') }} {{ loop.previtem.n if loop.previtem is defined else '-' }} "
      "{{ loop.nextitem.name if loop.nextitem is defined else '-' }} {{ label }} {{ job | tojson }}\n"
      "{% for tag in job.tags %}{% if tag == 'b' %}{% break %}{% endif %}[{{ tag }}:{{ loop.depth }}]{% endfor %}"
      "{% with doubled = job.n * 2 %}{{ doubled }}{% endwith %}"
      "{% filter upper %}{{ job.name }}{% endfilter %}"
      "{% set note %}n={{ job.n }}{% endset %}{{ note }}\n"
      "{% endfor %}end\n";
  expect_same_as_one_thread(tmpl, records(3000));
}

TEST(SplitLoop, TheElseBranchRunsWhenNoIterationRanToTheEnd) {
  expect_same_as_one_thread("{% for job in items %}{% continue %}{% else %}none{% endfor %}", records(50));
  expect_same_as_one_thread("{% for job in items %}{% if job.n < 49 %}{% continue %}{% endif %}x{% else %}none{% endfor %}",
                            records(50));
}

TEST(SplitLoop, SideEffectsHappenInOrder) {
  // A list changed in one iteration and read in the next ones.
  expect_same_as_one_thread(
      "{% set seen = [] %}{% for job in items %}{{ seen | length }},"
      "{% if job.n == 1500 %}{{ seen.append(job.n) or '' }}{% endif %}{% endfor %}",
      records(3000));
  // In the first block, which goes straight to the output.
  expect_same_as_one_thread("{% set c = cycler('a', 'b', 'c') %}{% for job in items %}{{ c.next() }}{% endfor %}",
                            records(500));
  expect_same_as_one_thread("{% for job in items %}{{ loop.changed(job.n // 7) }}{% endfor %}", records(500));
  expect_same_as_one_thread(
      "{% macro tick(n) %}<{{ n }}>{% endmacro %}"
      "{% for job in items %}{% if job.n % 250 == 249 %}{{ tick(job.n) }}{% endif %}.{% endfor %}",
      records(1000));
  expect_same_as_one_thread(
      "{% set ns = namespace(total=0) %}{% for job in items %}{% set ns.total = ns.total + job.n %}"
      "{{ ns.total }} {% endfor %}",
      records(500));
  expect_same_as_one_thread(
      "{% set j = joiner(', ') %}{% for job in items %}{{ j() }}{{ job.n }}{% endfor %}", records(500));
  // The random generator (a filter, the same called by map, and a global), and a block.
  expect_same_as_one_thread("{% for job in items %}{{ [job.n] | random }}{{ [[job.n]] | map('random') | join }}"
                            "{{ lipsum(1, false, 3, 5) | length > 0 }} {% endfor %}",
                            records(500));
  expect_same_as_one_thread("{% block b %}b{% endblock %}{% for job in items %}{{ self.b() }}{{ job.n }}{% endfor %}",
                            records(500));
}

// Every dict and list method declared ChangesState (tool/core/jinja/builtins/effects.h), called in the middle
// of a split loop whose every iteration prints the container: what one thread gives. The
// iteration that calls it first counts to 360,000 (some milliseconds), so that the other
// threads have rendered the blocks after it by then: were the declaration not acted on, they
// would have printed the container unchanged.
TEST(SplitLoop, EveryMethodDeclaredToChangeStateKeepsItsOrder) {
  for (const testing::MethodExamples& examples : testing::method_examples()) {
    for (const MethodEntry& method : examples.table) {
      if (method.effect != Effect::ChangesState) continue;
      const std::string call = testing::example_call(examples, method.name);
      if (call.empty()) continue;
      expect_same_as_one_thread("{% set x = " + examples.literal + " %}{% for job in items %}{{ x }};"
                                "{% if job.n == 1500 %}{% for i in range(600) %}{% for j in range(600) %}"
                                "{% endfor %}{% endfor %}{% set r = " + call + " %}{% endif %}{% endfor %}",
                                records(3000));
    }
  }
}

TEST(SplitLoop, TheFirstFailureIsReportedAfterWhatCameBeforeIt) {
  // Items 2000 and 2500 fail with different messages: the earlier one is the error, and the
  // text before it is all there, up to the failing expression.
  const std::string tmpl =
      "{% for job in items %}{{ job.n }} "
      "{% if job.n == 2000 %}{{ job.first_missing }}{% elif job.n == 2500 %}{{ job.second_missing }}{% endif %}"
      "{% endfor %}";
  const Rendered one = render_on(1, tmpl, records(3000));
  ASSERT_NE(one.error.find("first_missing"), std::string::npos) << one.error;
  expect_same_as_one_thread(tmpl, records(3000));
  // Only a late item fails: blocks after it are dropped, those before it are written out.
  expect_same_as_one_thread("{% for job in items %}{{ job.n }}{% if loop.last %}{{ 1 // 0 }}{% endif %}{% endfor %}",
                            records(3000));
}

// Blocks of a few KiB are gathered into the usual pieces: the output still streams, never
// gathered whole (20,000 short lines, 190 KB; blocks of 64 lines, under 1 KiB each).
TEST(SplitLoop, SmallBlocksStillStreamInPieces) {
  const std::string tmpl = "{% for job in items %}{{ job.name }}\n{% endfor %}";
  const Rendered split = render_on(3, tmpl, records(20000));
  EXPECT_TRUE(split.text == render_on(1, tmpl, records(20000)).text);
  EXPECT_GT(split.text.size(), size_t{150000});
  EXPECT_LE(split.largest_piece, size_t{80} << 10);
}

TEST(SplitLoop, NestedLoopsAndStreamedPiecesComeOutInOrder) {
  // Blocks of some size are handed to the sink whole: about 64 KiB pieces either way.
  const std::string tmpl =
      "{% for job in items %}{% for tag in job.tags %}{{ job.name }}-{{ tag }} {% endfor %}"
      "{{ 'x' * 200 }}\n{% endfor %}";
  expect_same_as_one_thread(tmpl, records(20000));
}

}  // namespace
}  // namespace gkebuild::jinja
