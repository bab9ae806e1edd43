// The YAML file reader every gkebuild input goes through (tool/core/yamlfile): an error names
// file:line:col, a mapping is read key by key, scalars are typed as YAML 1.2 types them (not as
// YAML 1.1's `yes` and `0777`), and YAML turns into JSON with its order kept.
#include <gtest/gtest.h>

#include <string>

#include "base/source_error.h"
#include "tool/core/yamlfile/document.h"
#include "tool/core/yamlfile/fields.h"
#include "tool/core/yamlfile/scalars.h"
#include "tool/core/yamlfile/to_json.h"

namespace gkebuild::yamlfile {
namespace {

// The SourceError `call` throws; fails the test when it throws none.
template <typename Call>
SourceError error_of(Call call) {
  try {
    call();
  } catch (const SourceError& error) {
    return error;
  }
  ADD_FAILURE() << "no SourceError";
  return SourceError({}, "");
}

TEST(Document, ASyntaxErrorNamesItsPosition) {
  const auto error = error_of([] { Document::parse("a: 1\nb: [2, 3\n", "f.yaml"); });
  EXPECT_EQ(error.where().file, "f.yaml");
  EXPECT_GE(error.where().line, 2);
  EXPECT_TRUE(Document::parse("", "empty.yaml").root().IsNull());
}

TEST(Document, NodesKnowWhereTheyAre) {
  const auto doc = Document::parse("top:\n  inner: [x, y]\n", "f.yaml");
  const auto where = doc.where(doc.root()["top"]["inner"][1]);
  EXPECT_EQ(where.line, 2);
  EXPECT_EQ(where.column, 14);
  const auto error = error_of([&] { doc.fail(doc.root()["top"]["inner"], "not here"); });
  EXPECT_EQ(error.where().line, 2);
  EXPECT_NE(std::string(error.what()).find("f.yaml:2:10"), std::string::npos) << error.what();
}

TEST(Fields, AnUnknownKeyIsAnErrorAtItsPositionWithAHint) {
  const auto doc = Document::parse("name: a\nimgae: b\n", "p.yaml");
  const auto error = error_of([&] { Fields(doc, doc.root(), "experiment 'a'", {"name", "image"}); });
  EXPECT_EQ(error.where().line, 2);
  EXPECT_EQ(error.where().column, 1);
  EXPECT_NE(error.message().find("image"), std::string::npos) << error.message();
}

TEST(Fields, TypedReadsNameWhatTheyExpected) {
  const auto doc = Document::parse("count: -1\nlabel: [a]\nempty:\nflag: yes\n", "p.yaml");
  Fields fields(doc, doc.root(), "x", {"count", "label", "empty", "flag"});
  EXPECT_FALSE(fields.has("empty")) << "a key with nothing after it is absent";
  EXPECT_EQ(fields.string("empty", "fallback"), "fallback");
  EXPECT_EQ(error_of([&] { fields.integer("count", 0, 1); }).where().line, 1);
  EXPECT_EQ(error_of([&] { fields.string("label", ""); }).where().line, 2);
  EXPECT_EQ(error_of([&] { fields.boolean("flag", false); }).where().line, 4) << "yes is a string in YAML 1.2";
  EXPECT_EQ(error_of([&] { fields.required("missing"); }).where().line, 1);
  const auto numbers = Document::parse("a: 017\nb: 0o17\n", "n.yaml");
  Fields read(numbers, numbers.root(), "n", {"a", "b"});
  EXPECT_EQ(read.integer("a", 0, 0), 17);
  EXPECT_EQ(read.integer("b", 0, 0), 15);
  EXPECT_EQ(as_number(numbers, numbers.root()["b"], "b"), 15.0);
}

TEST(Scalars, TypedAsYaml12CoreSchema) {
  EXPECT_EQ(resolve_scalar("yes", true), ScalarKind::String);
  EXPECT_EQ(resolve_scalar("true", true), ScalarKind::Bool);
  EXPECT_EQ(resolve_scalar("~", true), ScalarKind::Null);
  EXPECT_EQ(resolve_scalar("0o17", true), ScalarKind::Integer);
  EXPECT_EQ(scalar_value("0o17", ScalarKind::Integer).integer, 15);
  EXPECT_EQ(scalar_value("017", ScalarKind::Integer).integer, 17) << "decimal in YAML 1.2";
  EXPECT_EQ(scalar_value("0x1F", ScalarKind::Integer).integer, 31);
  EXPECT_EQ(scalar_value("-12", ScalarKind::Integer).integer, -12);
  EXPECT_EQ(resolve_scalar(".inf", true), ScalarKind::Float);
  EXPECT_EQ(resolve_scalar("3", false), ScalarKind::String) << "quoted";
  EXPECT_EQ(scalar_value("99999999999999999999", ScalarKind::Integer).kind, ScalarKind::Float);
  std::string_view quoted = "'3'";
  EXPECT_EQ(resolve_command_line_scalar(quoted), ScalarKind::String);
  EXPECT_EQ(quoted, "3");
}

TEST(ToJson, KeepsOrderAndTypes) {
  const auto doc = Document::parse("z: 1\na: [true, '2', 2.5, null, yes]\n", "v.yaml");
  const auto json = to_json(doc.root());
  EXPECT_EQ(json.dump(), R"({"z":1,"a":[true,"2",2.5,null,"yes"]})");
  EXPECT_EQ(scalar_to_json("'3'"), "3");
  EXPECT_EQ(scalar_to_json("3"), 3);
}

}  // namespace
}  // namespace gkebuild::yamlfile
