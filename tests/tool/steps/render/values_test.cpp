// Values files read straight into engine values: typing as the yaml-cpp converter typed
// them, positions in every error, and bounded work on hostile documents.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <regex>
#include <thread>

#include "base/error.h"
#include "base/source_error.h"
#include "tests/common/temp_dir.h"
#include "tool/core/jinja/environment.h"
#include "tool/core/yamlfile/document.h"
#include "tool/core/yamlfile/scalars.h"
#include "tool/core/yamlfile/to_json.h"
#include "tool/steps/render/values.h"
#include "tool/steps/render/values_json.h"
#include "tool/steps/render/values_yaml.h"

namespace gkebuild::render {
namespace {

using json = nlohmann::ordered_json;
using jinja::Value;

json yaml(const std::string& text) { return jinja::to_json(parse_yaml_values(text, "v.yaml")); }
json json_file(const std::string& text) { return jinja::to_json(parse_json_values(text, "v.json")); }

// The message of the SourceError that `parse` throws, "" when it throws none.
template <class F>
std::string error_of(F&& parse) {
  try {
    parse();
  } catch (const SourceError& error) {
    return to_string(error.where()) + ": " + error.message();
  }
  return "";
}

// What `source` renders to over `values`, or "error: " and the message of what it raises.
std::string render(const std::string& source, const Value& values) {
  jinja::Environment environment;
  environment.add_template("t", source);
  try {
    return environment.render_file("t", values);
  } catch (const std::exception& error) {
    return std::string("error: ") + error.what();
  }
}

TEST(ValuesYaml, TypesScalarsAsTheYamlCppConverterDid) {
  const std::vector<std::string> documents = {
      "a: 3\nb: -7\nc: 0x1F\nd: 1.5\ne: 1e3\nf: .inf\ng: -.Inf\nh: 12345678901234567890\n",
      "a: true\nb: False\nc: yes\nd: no\ne: on\nf: ~\ng: null\nh:\ni: NULL\n",
      "a: '3'\nb: \"true\"\nc: !!str 3\nd: plain text\ne: 'it''s'\nf: \"tab\\there\\u00e9\"\n",
      "text: |\n  line one\n  line two\nfolded: >\n  a\n  b\n",
      "base: &base {cpu: 4, memory: 8Gi}\njob:\n  <<: *base\n  gpus: [1, 2, {x: *base}]\n",
      "list:\n- a\n- - b\n  - c\n- {k: v}\n3: integer key\ntrue: bool key\n",
      "z: 1\na: 2\nm: 3\n",
      "a: 0o17\nb: 010\nc: +5\nd: -0\ne: 1_000\nf: 1.\ng: .5\nh: 1e400\n",
      "# comment\n'quoted key': {}\n\"k2\": []\nkeep: |+\n  x\n\nstrip: |-\n  y\n",
      "a: 1\n---\nb: 2\n",
  };
  for (const auto& document : documents)
    EXPECT_EQ(yaml(document), yamlfile::to_json(YAML::Load(document))) << document;
}

// resolve_scalar's hand-written matchers against the regular expressions they replace, over
// every string of up to four characters from the alphabet that matters.
TEST(ValuesYaml, ScalarTypingMatchesTheRegularExpressions) {
  const std::regex integer("[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+");
  const std::regex number(
      "[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN)");
  const std::string alphabet = "0189aAfxoeE+-.";
  std::vector<std::string> texts = {"", ".inf", "-.Inf", "+.INF", ".nan", ".NaN", ".NAN", "-.nan", ".infx", "0o",
                                    "0x", "0o17", "0x1F", "0o8", "1.5e+10", "-.5E-3", "1_0", "0x-1", "00"};
  std::vector<std::string> frontier = {""};
  for (int length = 1; length <= 4; ++length) {
    std::vector<std::string> next;
    for (const auto& prefix : frontier)
      for (char c : alphabet) next.push_back(prefix + c);
    texts.insert(texts.end(), next.begin(), next.end());
    frontier = std::move(next);
  }
  for (const auto& text : texts) {
    auto expected = yamlfile::ScalarKind::String;
    if (text.empty()) expected = yamlfile::ScalarKind::Null;
    else if (std::regex_match(text, integer)) expected = yamlfile::ScalarKind::Integer;
    else if (std::regex_match(text, number)) expected = yamlfile::ScalarKind::Float;
    ASSERT_EQ(yamlfile::resolve_scalar(text, true), expected) << "'" << text << "'";
  }
}

TEST(ValuesYaml, KeysKeepInsertionOrderAndAliasesShareValues) {
  const Value values = parse_yaml_values("z: &x [1, 2]\na: *x\n", "v.yaml");
  ASSERT_EQ(values.pairs().size(), 2u);
  EXPECT_EQ(values.pairs()[0].first.str(), "z");
  EXPECT_EQ(values.pairs()[1].first.str(), "a");
  EXPECT_EQ(values.pairs()[0].second.object_ptr(), values.pairs()[1].second.object_ptr());
}

TEST(ValuesYaml, ErrorsNameFileLineAndColumn) {
  EXPECT_EQ(error_of([] { yaml("a: 1\nb:\n  c: 2\n  c: 3\n"); }), "v.yaml:4:3: duplicate key 'c'");
  EXPECT_EQ(error_of([] { yaml("a: [1, 2\nb: 3\n"); }).substr(0, 11), "v.yaml:2:2:");
  EXPECT_EQ(error_of([] { yaml("a: *nowhere\n"); }), "v.yaml:1:4: undefined alias *nowhere");
  EXPECT_EQ(error_of([] { yaml("? [1, 2]\n: x\n"); }),
            "v.yaml:1:3: a values file's keys must be strings, not lists or mappings");
}

TEST(ValuesYaml, RecursiveAliasIsAnErrorNotACrash) {
  EXPECT_EQ(error_of([] { yaml("x: &a [*a]\n"); }),
            "v.yaml:1:8: recursive alias *a: it refers to a node that contains it");
  EXPECT_NE(error_of([] { yaml("x: &a {y: {z: *a}}\n"); }).find("recursive alias *a"), std::string::npos);
}

// The classic billion laughs: nine levels of ten aliases each, 10^9 strings once expanded.
std::string billion_laughs() {
  std::string text = "a0: &a0 [lol]\n";
  for (int level = 1; level <= 9; ++level) {
    const std::string previous = "*a" + std::to_string(level - 1);
    text += "a" + std::to_string(level) + ": &a" + std::to_string(level) + " [";
    for (int i = 0; i < 10; ++i) text += (i ? ", " : "") + previous;
    text += "]\n";
  }
  return text;
}

TEST(ValuesYaml, BillionLaughsStopsAtTheAliasLimit) {
  const std::string message = error_of([] { parse_yaml_values(billion_laughs(), "v.yaml"); });
  EXPECT_NE(message.find("aliases expand to more than 1000000 nodes"), std::string::npos) << message;
  // Aliases below the limit are fine: three levels are 1,000 copies of "lol".
  EXPECT_NO_THROW(parse_yaml_values(billion_laughs().substr(0, billion_laughs().find("a4:")), "v.yaml"));
}

TEST(ValuesYaml, NestingIsLimited) {
  EXPECT_NE(error_of([] { yaml("a: " + std::string(5000, '[') + std::string(5000, ']') + "\n"); }), "");
  EXPECT_NO_THROW(yaml("a: " + std::string(500, '[') + std::string(500, ']') + "\n"));
}

TEST(ValuesJson, ParsesStraightIntoValues) {
  const Value values = parse_json_values(
      R"({"z": 1, "a": -2.5e1, "s": "caf\u00e9 \ud83d\ude00\n", "l": [true, false, null, {}, []],
          "plain": "no escapes"})",
      "v.json");
  ASSERT_TRUE(values.is_mapping());
  EXPECT_EQ(jinja::to_json(values).dump(),
            R"({"z":1,"a":-25.0,"s":"café 😀\n","l":[true,false,null,{},[]],"plain":"no escapes"})");
  Value plain;
  ASSERT_TRUE(jinja::mapping_find(values, "plain", plain));
  EXPECT_EQ(plain.str(), "no escapes");
}

// Integers are signed 64-bit: one beyond that is an error when a template reads it, never a
// rounded float (Jinja2 would print it exactly; found by the conformance suite run with values).
TEST(ValuesJson, AnIntegerBeyond64BitsIsAnErrorWhenRead) {
  const Value values = parse_json_values(R"({"big": 12345678901234567890, "small": -9223372036854775808})", "v.json");
  EXPECT_EQ(render("{{ small }}", values), "-9223372036854775808");
  EXPECT_NE(render("{{ big }}", values).find("integer 12345678901234567890 in the context does not fit"),
            std::string::npos);
}

// A document that is one such integer has no template to wait for: it is a positioned error
// at once (found by the values_json fuzz target: it escaped as an unpositioned EvalError).
TEST(ValuesJson, AWholeDocumentBeyond64BitsIsRefusedWithItsPosition) {
  EXPECT_EQ(error_of([] { json_file("100000000000000000000"); }),
            "v.json:1:1: integer 100000000000000000000 does not fit in a signed 64-bit integer");
  EXPECT_EQ(error_of([] { json_file("\n  -100000000000000000000 "); }),
            "v.json:2:3: integer -100000000000000000000 does not fit in a signed 64-bit integer");
}

TEST(ValuesJson, TypesAsTheYamlReaderDoes) {
  const std::string document = R"({"i": 3, "n": -0, "f": 1.0, "e": 1E3, "s": "3", "b": true, "x": null})";
  EXPECT_EQ(json_file(document), yaml(document));
  EXPECT_EQ(json_file("\xEF\xBB\xBF" + document), yaml(document));
}

TEST(ValuesJson, ErrorsNameFileLineAndColumn) {
  EXPECT_EQ(error_of([] { json_file("{\"a\": 1,\n \"a\": 2}"); }), "v.json:2:2: duplicate key 'a'");
  EXPECT_EQ(error_of([] { json_file("{\"a\": 1,\n  ]"); }), "v.json:2:3: invalid JSON: expected a string key");
  EXPECT_EQ(error_of([] { json_file("{\"a\": 01}"); }), "v.json:1:7: invalid JSON: invalid number");
  EXPECT_EQ(error_of([] { json_file("{\"a\": \"x\\q\"}"); }), "v.json:1:9: invalid JSON: invalid escape");
  EXPECT_EQ(error_of([] { json_file("{} x"); }), "v.json:1:4: invalid JSON: unexpected text after the JSON document");
  EXPECT_EQ(error_of([] { json_file("{\"a\": \"open"); }), "v.json:1:7: invalid JSON: unterminated string");
}

// A JSON values file is read into a read-only document; a template that changes its lists
// and dicts in place changes copies that every reference sees, as Python's objects would be
// (expected output from Python jinja2 3.1).
TEST(ValuesJson, TemplatesChangeDocumentDataInPlaceAsInJinja2) {
  const Value values = parse_json_values(R"({"jobs": [{"a": "s"}], "d": {"a": 1, "b": 2}, "l": [1, 2, 3]})", "v.json");
  const std::string source =
      "{% set j = jobs[0] %}{% set _ = j.update({'x': 1}) %}{{ jobs[0].x }} {{ j.x }} {% set _ = jobs.append(5) %}"
      "{{ jobs|length }} {{ jobs[0] is sameas j }} {{ jobs|tojson }}\n"
      "{% for k, v in d.items() %}{% set _ = d.update({'b': 9}) %}{{ k }}{{ v }},{% endfor %} {{ d.pop('a') }} {{ d }}\n"
      "{% for x in l %}{% if loop.first %}{% set _ = l.reverse() %}{% endif %}{{ x }}{% endfor %} {{ l }} "
      "{{ l is sameas l }}";
  EXPECT_EQ(render(source, values),
            "1 1 2 True [{\"a\": \"s\", \"x\": 1}, 5]\n"
            "a1,b9, 1 {'b': 9}\n"
            "121 [3, 2, 1] True");
}

TEST(ValuesJson, AMissingKeyIsUndefinedWithJinja2sMessage) {
  const Value values = parse_json_values(R"({"jobs": [{"a": "s"}]})", "v.json");
  EXPECT_EQ(render("{{ jobs[0].retries | default(0) }} {{ jobs[0].a }}", values), "0 s");
  EXPECT_NE(render("{{ jobs[0].retries }}", values).find("'dict object' has no attribute 'retries'"),
            std::string::npos);
}

// Values merged from several JSON files borrow from each file's document: the merge keeps
// the documents alive after the files' own values are gone (AddressSanitizer checks this).
TEST(ValuesJson, MergedFilesKeepTheirDocuments) {
  testing::TempDir scratch;
  scratch.write("a.json", R"({"keep": "from \u0061", "a": {"x": "s", "l": ["p"]}})");
  scratch.write("b.json", R"({"a": {"y": "t"}})");
  const Value values = load_values({scratch / "a.json", scratch / "b.json"}, {{"z", "1"}});
  EXPECT_EQ(jinja::to_json(values).dump(), R"({"keep":"from a","a":{"x":"s","l":["p"],"y":"t"},"z":1})");
}

// Mappings with the same keys in the same order share one array of keys, and a mapping that
// starts like an earlier one is still checked for duplicates once it departs from it.
TEST(ValuesJson, RecordsThatShareTheirKeysStayApart) {
  const std::string records =
      R"([{"a": 1, "b": 2}, {"a": 3, "b": 4}, {"b": 5, "a": 6}, {"a": 7}, {"a": 8, "b": 9, "c": 10}, {}, {"a": 11, "b": 12}])";
  EXPECT_EQ(json_file(records), json::parse(records));
  // Keys written with escapes, before or after the same key written plainly.
  const std::string escaped = R"([{"\u0061": 1, "b": 2}, {"a": 3, "b": 4}, {"a": 5, "\u0062": 6}, {"a\"": 7}, {"a\\": 8}])";
  EXPECT_EQ(json_file(escaped), json::parse(escaped));
  EXPECT_EQ(error_of([] { json_file(R"([{"a": 1, "b": 2}, {"a": 1, "\u0061": 2}])"); }), "v.json:1:29: duplicate key 'a'");
  EXPECT_EQ(error_of([] { json_file(R"([{"a": 1, "b": 2}, {"a": 1, "a": 2}])"); }), "v.json:1:29: duplicate key 'a'");
  EXPECT_EQ(error_of([] { json_file(R"([{"a": 1, "b": 2}, {"a": 1, "b": 2, "b": 3}])"); }),
            "v.json:1:37: duplicate key 'b'");
  EXPECT_EQ(error_of([] { json_file(R"([{"a": 1}, {"a": 1, "b": 2, "a": 3}])"); }), "v.json:1:29: duplicate key 'a'");
}

// `record.field` remembers where it found the field; records of other shapes, missing fields
// and records that a template changed still answer as in Jinja2.
TEST(ValuesJson, FieldsOfRecordsOfEveryShape) {
  const Value values = parse_json_values(
      R"({"rs": [{"a": 1, "b": 2}, {"b": 3}, {"c": 1, "b": 4}, {"a": 5, "b": 6}, {"a": 7, "b": 8}]})", "v.json");
  EXPECT_EQ(render("{% for r in rs %}{{ r.b }}{{ r.a | default('-') }},{% endfor %}"
                   "{% set _ = rs[4].update({'b': 9}) %}{% for r in rs %}{{ r.b }}{% endfor %}",
                   values),
            "21,3-,4-,65,87,23469");
}

TEST(ValuesJson, NestingIsLimited) {
  EXPECT_EQ(error_of([] { json_file(std::string(100000, '[')); }),
            "v.json:1:1001: invalid JSON: nested more than 1000 levels deep");
  EXPECT_NO_THROW(json_file(std::string(999, '[') + std::string(999, ']')));
}

TEST(Values, FilesThenSetsWithTypedScalars) {
  Value values = Value::dict({});
  apply_set(values, {"a.b", "3"});
  apply_set(values, {"a.c", "true"});
  apply_set(values, {"a.d", "'3'"});
  apply_set(values, {"name", "x=y"});
  apply_set(values, {"f", "1.5"});
  apply_set(values, {"e", ""});
  EXPECT_EQ(jinja::to_json(values), (json{{"a", {{"b", 3}, {"c", true}, {"d", "3"}}}, {"name", "x=y"}, {"f", 1.5},
                                          {"e", ""}}));
  EXPECT_THROW(apply_set(values, {"a..b", "1"}), Error);
  Value base = parse_yaml_values("a: {x: 1, y: 2}\n", "base.yaml");
  merge_values(base, parse_yaml_values("a: {y: 3}\n", "overlay.yaml"));
  EXPECT_EQ(jinja::to_json(base), (json{{"a", {{"x", 1}, {"y", 3}}}}));
}

TEST(Values, MergesAndSetsNeverChangeWhatAnAliasShares) {
  Value values = parse_yaml_values("x: &d {a: 1}\ny: *d\n", "base.yaml");
  merge_values(values, parse_yaml_values("x: {b: 2}\n", "overlay.yaml"));
  apply_set(values, {"x.c", "3"});
  EXPECT_EQ(jinja::to_json(values), (json{{"x", {{"a", 1}, {"b", 2}, {"c", 3}}}, {"y", {{"a", 1}}}}));
}

// Whether /proc/self/maps lists `file`: a mapped file is, a read one is not.
bool is_mapped(const std::filesystem::path& file) {
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);)
    if (line.ends_with(" " + file.string())) return true;
  return false;
}

// A JSON document of about `bytes` bytes, a list of records, with `tail` after its last record.
std::string records_of_size(std::size_t bytes, const std::string& tail) {
  std::string text = R"({"jobs": [)";
  for (int i = 0; text.size() + 200 < bytes; ++i)
    text += std::string(i ? ", " : "") + R"({"name": "job-)" + std::to_string(i) + R"(", "args": ["--seed", ")" +
            std::to_string(i) + R"("], "gpus": 1})";
  text += "]";
  text += tail;
  text.append(bytes > text.size() ? bytes - text.size() : 0, ' ');
  return text;
}

// A large values file is mapped, not copied (the reader relies on the NUL the kernel puts after
// the last byte), and reads exactly as a small one: same values, same error positions, the
// mapping gone with the values. A file that fills its last page is read instead.
TEST(ValuesJson, LargeFilesAreMappedAndReadAsSmallOnesAre) {
  testing::TempDir scratch;
  const std::string text = records_of_size((std::size_t{1} << 20) + 123, "}");
  const auto large = scratch.write("large.json", text);
  {
    const yamlfile::FileText file_text = yamlfile::read_text(large);
    EXPECT_TRUE(is_mapped(large));
    ASSERT_EQ(file_text.view(), text);
    EXPECT_EQ(file_text.view().data()[text.size()], '\0');
  }
  EXPECT_FALSE(is_mapped(large));
  {
    const Value values = load_values_file(large);
    EXPECT_TRUE(is_mapped(large));
    EXPECT_EQ(jinja::to_json(values), json::parse(text));
  }
  EXPECT_FALSE(is_mapped(large));

  // A whole number of pages: no room for the NUL in the mapping, so the file is read.
  const std::string full = records_of_size(std::size_t{1} << 20, "}");
  ASSERT_EQ(full.size() % static_cast<std::size_t>(sysconf(_SC_PAGESIZE)), 0u);
  const auto whole_pages = scratch.write("pages.json", full);
  EXPECT_FALSE(is_mapped(whole_pages));
  EXPECT_EQ(jinja::to_json(load_values_file(whole_pages)), json::parse(full));

  // A document cut short at the very end of a mapped file stops at the NUL, with its position.
  std::string cut = records_of_size((std::size_t{1} << 20) + 77, "");
  while (cut.back() == ' ') cut.pop_back();
  cut.pop_back();  // the list's ']'
  cut += R"(, {"name": "last)";
  const auto cut_file = scratch.write("cut.json", cut);
  EXPECT_EQ(error_of([&] { load_values_file(cut_file); }),
            cut_file.string() + ":1:" + std::to_string(cut.size() - std::string(R"("last)").size() + 1) +
                ": invalid JSON: unterminated string");
  const auto late_error = scratch.write("late.json", records_of_size((std::size_t{1} << 20) + 5, "\n]"));
  EXPECT_EQ(error_of([&] { load_values_file(late_error); }), late_error.string() + ":2:1: invalid JSON: expected ',' or '}'");
}

// A values file that is a named pipe (`mkfifo`, or a generator writing to one) is read once,
// never opened just to be looked at: closing it again would leave its writer without a reader.
TEST(ValuesJson, ANamedPipeIsRead) {
  testing::TempDir scratch;
  const auto fifo = scratch / "values.json";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] {
    std::ofstream out(fifo);  // waits for the reader
    out << R"({"a": [1, "x"]})";
  });
  const Value values = load_values_file(fifo);
  writer.join();
  EXPECT_EQ(jinja::to_json(values).dump(), R"({"a":[1,"x"]})");
}

TEST(Values, LoadsFilesByExtensionAndRefusesNonMappings) {
  testing::TempDir scratch;
  scratch.write("a.json", R"({"a": {"x": 1}, "list": [1]})");
  scratch.write("b.yaml", "a: {y: 2}\nlist: [2]\n");
  scratch.write("empty.yaml", "");
  scratch.write("list.yaml", "- 1\n");
  const Value values = load_values({scratch / "a.json", scratch / "b.yaml", scratch / "empty.yaml"}, {{"a.z", "3"}});
  EXPECT_EQ(jinja::to_json(values), (json{{"a", {{"x", 1}, {"y", 2}, {"z", 3}}}, {"list", {2}}}));
  EXPECT_EQ(error_of([&] { load_values_file(scratch / "list.yaml"); }),
            (scratch / "list.yaml").string() + ": a values file must be a mapping at the top, got a list");
}

}  // namespace
}  // namespace gkebuild::render
