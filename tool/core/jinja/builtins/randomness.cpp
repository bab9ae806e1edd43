// Jinja2's randomness: the `random` filter and the `lipsum` global. Like Jinja2's (Python's
// random module), they are not seeded by the template: their output changes from run to run,
// from a generator seeded by std::random_device.
#include "tool/core/jinja/runtime/limits.h"
#include "tool/core/jinja/builtins/randomness.h"

#include <iterator>
#include <random>
#include <string>

#include "tool/core/jinja/builtins/filters.h"
#include "tool/core/jinja/runtime/interpreter.h"

namespace gkebuild::jinja {
namespace {

// jinja2.constants.LOREM_IPSUM_WORDS (jinja2 3.1.6, src/jinja2/constants.py, BSD-3-Clause).
constexpr std::string_view kLoremIpsumWords[] = {
    "a", "ac", "accumsan", "ad", "adipiscing", "aenean", "aliquam", "aliquet", "amet", "ante",
    "aptent", "arcu", "at", "auctor", "augue", "bibendum", "blandit", "class", "commodo",
    "condimentum", "congue", "consectetuer", "consequat", "conubia", "convallis", "cras", "cubilia",
    "cum", "curabitur", "curae", "cursus", "dapibus", "diam", "dictum", "dictumst", "dignissim",
    "dis", "dolor", "donec", "dui", "duis", "egestas", "eget", "eleifend", "elementum", "elit",
    "enim", "erat", "eros", "est", "et", "etiam", "eu", "euismod", "facilisi", "facilisis", "fames",
    "faucibus", "felis", "fermentum", "feugiat", "fringilla", "fusce", "gravida", "habitant",
    "habitasse", "hac", "hendrerit", "hymenaeos", "iaculis", "id", "imperdiet", "in", "inceptos",
    "integer", "interdum", "ipsum", "justo", "lacinia", "lacus", "laoreet", "lectus", "leo",
    "libero", "ligula", "litora", "lobortis", "lorem", "luctus", "maecenas", "magna", "magnis",
    "malesuada", "massa", "mattis", "mauris", "metus", "mi", "molestie", "mollis", "montes",
    "morbi", "mus", "nam", "nascetur", "natoque", "nec", "neque", "netus", "nibh", "nisi", "nisl",
    "non", "nonummy", "nostra", "nulla", "nullam", "nunc", "odio", "orci", "ornare", "parturient",
    "pede", "pellentesque", "penatibus", "per", "pharetra", "phasellus", "placerat", "platea",
    "porta", "porttitor", "posuere", "potenti", "praesent", "pretium", "primis", "proin",
    "pulvinar", "purus", "quam", "quis", "quisque", "rhoncus", "ridiculus", "risus", "rutrum",
    "sagittis", "sapien", "scelerisque", "sed", "sem", "semper", "senectus", "sit", "sociis",
    "sociosqu", "sodales", "sollicitudin", "suscipit", "suspendisse", "taciti", "tellus", "tempor",
    "tempus", "tincidunt", "torquent", "tortor", "tristique", "turpis", "ullamcorper", "ultrices",
    "ultricies", "urna", "ut", "varius", "vehicula", "vel", "velit", "venenatis", "vestibulum",
    "vitae", "vivamus", "viverra", "volutpat", "vulputate",
};

std::mt19937_64& generator() {
  thread_local std::mt19937_64 engine{std::random_device{}()};
  return engine;
}

// Python's random.randrange(low, high): an integer in [low, high).
int64_t randrange(int64_t low, int64_t high) {
  if (low >= high)
    throw EvalError("empty range for randrange() (" + std::to_string(low) + ", " + std::to_string(high) + ")");
  return std::uniform_int_distribution<int64_t>(low, high - 1)(generator());
}

// jinja2.utils.generate_lorem_ipsum, step by step.
std::string paragraph(int64_t min, int64_t max) {
  constexpr auto kWords = static_cast<int64_t>(std::size(kLoremIpsumWords));
  std::string text;
  bool capitalize_next = true;
  int64_t last_comma = 0, last_fullstop = 0;
  std::string_view last;
  const int64_t count = randrange(min, max);
  for (int64_t index = 0; index < count; ++index) {
    std::string_view chosen;
    do chosen = kLoremIpsumWords[randrange(0, kWords)];
    while (chosen == last);
    last = chosen;
    std::string word(chosen);
    if (capitalize_next) {
      word[0] = static_cast<char>(word[0] - 'a' + 'A');
      capitalize_next = false;
    }
    if (index - randrange(3, 8) > last_comma) {
      last_comma = index;
      last_fullstop += 2;
      word += ',';
    }
    if (index - randrange(10, 20) > last_fullstop) {
      last_comma = last_fullstop = index;
      word += '.';
      capitalize_next = true;
    }
    if (index) text += ' ';
    text += word;
  }
  if (!text.empty() && text.back() == ',') text.back() = '.';
  else if (text.empty() || text.back() != '.') text += '.';
  return text;
}

}  // namespace

// `seq | random`: random.choice(seq); an empty sequence gives an Undefined, as in Jinja2.
Value random_filter(Interpreter& in, const Value& v, CallArgs& a) {
  a.bind("random", {});
  if (v.is_mapping()) throw EvalError("random: cannot pick an item of a mapping by position (Jinja2 raises KeyError)");
  Sequence items = in.iterate(v);
  if (items.size() == 0) return Value::undefined_with("No random item, sequence was empty.");
  return items.at(static_cast<size_t>(randrange(0, static_cast<int64_t>(items.size()))));
}

// lipsum(n=5, html=True, min=20, max=100): n paragraphs of 20 to 99 words.
Value lipsum_global(Interpreter&, CallArgs& a) {
  Bound b = a.bind("lipsum", {"n", "html", "min", "max"});
  const int64_t n = arg_int(b[0], 5, "n");
  const bool html = arg_bool(b[1], true);
  const int64_t min = arg_int(b[2], 20, "min");
  const int64_t max = arg_int(b[3], 100, "max");
  constexpr int64_t kMaxParagraphs = 10000;  // a size guard, like the other generators'
  if (n > kMaxParagraphs || max > 100000) throw EvalError("lipsum: at most 10000 paragraphs of 100000 words");
  std::string out;
  for (int64_t i = 0; i < n; ++i) {
    require_result_size(out.size());  // 10000 paragraphs of 100000 words would be gigabytes
    const std::string text = paragraph(min, max);
    if (html) out += (i ? "\n<p>" : "<p>") + html_escape(text) + "</p>";
    else out += (i ? "\n\n" : "") + text;
  }
  return html ? Value::markup(std::move(out)) : Value::string(std::move(out));
}

}  // namespace gkebuild::jinja
