// Positions of YAML nodes in the file (not the document), multi-document streams,
// kind: List, CRLF, duplicate keys and YAML 1.1 scalar typing.
#include <gtest/gtest.h>

#include "tool/steps/validate/yaml_loader.h"
#include "tool/steps/validate/yaml_scalar.h"

namespace gkebuild::validate {
namespace {

TEST(Loader, PositionsAreInTheFileAcrossDocuments) {
  std::string text =
      "# leading comment\n"
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n"
      "---\n"
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: b\nspec:\n  containers:\n  - name: c\n    image: busybox\n";
  auto loaded = load_manifests(text, "f.yaml");
  ASSERT_TRUE(loaded.findings.empty());
  ASSERT_EQ(loaded.manifests.size(), 2u);
  const auto& pod = loaded.manifests[1];
  EXPECT_EQ(pod.kind(), "Pod");
  Position image = pod.position({"spec", "containers", "0", "image"});
  EXPECT_EQ(image.line, 14);
  EXPECT_EQ(image.column, 12);
  Position key = pod.position({"spec", "containers", "0", "image"}, true);
  EXPECT_EQ(key.line, 14);
  EXPECT_EQ(key.column, 5);
  // A missing field resolves to its deepest existing parent.
  Position missing = pod.position({"spec", "containers", "0", "resources", "limits"});
  EXPECT_EQ(missing.line, 13);
}

TEST(Loader, ListItemsKeepTheirOwnPositions) {
  std::string text =
      "apiVersion: v1\nkind: List\nitems:\n"
      "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: one\n"
      "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: two\n";
  auto loaded = load_manifests(text, "list.yaml");
  ASSERT_EQ(loaded.manifests.size(), 2u);
  EXPECT_EQ(loaded.manifests[1].name(), "two");
  EXPECT_EQ(loaded.manifests[1].position({"metadata", "name"}).line, 11);
  EXPECT_EQ(loaded.manifests[1].position({"metadata", "name"}).column, 11);
}

TEST(Loader, CrlfAndEmptyDocumentsAndMarkersWithComments) {
  std::string text = "---\r\n# nothing\r\n--- # second\r\napiVersion: v1\r\nkind: Namespace\r\nmetadata:\r\n  name: x\r\n---\r\n";
  auto loaded = load_manifests(text, "crlf.yaml");
  ASSERT_TRUE(loaded.findings.empty());
  ASSERT_EQ(loaded.manifests.size(), 1u);
  EXPECT_EQ(loaded.manifests[0].position({"metadata", "name"}).line, 7);
  EXPECT_EQ(loaded.manifests[0].value["metadata"]["name"], "x");
}

TEST(Loader, DuplicateKeysAreFindingsAtTheSecondKey) {
  auto loaded = load_manifests("apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  name: b\n", "dup.yaml");
  ASSERT_EQ(loaded.findings.size(), 1u);
  EXPECT_EQ(loaded.findings[0].rule, "duplicate-key");
  EXPECT_EQ(loaded.findings[0].line, 5);
  EXPECT_EQ(loaded.findings[0].column, 3);
  EXPECT_NE(loaded.findings[0].message.find("line 4"), std::string::npos);
  // Which value wins matters (Google's GPUDirect NCCL tests repeat `resources:`): the last,
  // as in kubectl (tests/tool/steps/validate/upstream_peer_test.cpp checks kubectl itself).
  EXPECT_NE(loaded.findings[0].message.find("kubectl uses this later value"), std::string::npos);
  EXPECT_EQ(loaded.manifests[0].value["metadata"]["name"], "b");
}

TEST(Loader, SyntaxErrorsNameTheFileLineOfTheSecondDocument) {
  auto loaded = load_manifests("a: 1\n---\nb: [1, 2\nc: 3\n", "bad.yaml");
  ASSERT_EQ(loaded.findings.size(), 1u);
  EXPECT_EQ(loaded.findings[0].rule, "yaml-syntax");
  EXPECT_GE(loaded.findings[0].line, 3);
  EXPECT_EQ(loaded.manifests.size(), 1u);  // the first document still counts
}

TEST(Loader, MergeKeysAndAliases) {
  auto loaded = load_manifests("base: &b {x: 1, y: 2}\nobj:\n  <<: *b\n  y: 3\n", "m.yaml");
  ASSERT_EQ(loaded.manifests.size(), 1u);
  const auto& obj = loaded.manifests[0].value["obj"];
  EXPECT_EQ(obj["x"], 1);
  EXPECT_EQ(obj["y"], 3);
}

TEST(Scalars, Yaml11TypingLikePyYaml) {
  EXPECT_EQ(resolve_plain_scalar("yes"), true);
  EXPECT_EQ(resolve_plain_scalar("Off"), false);
  EXPECT_EQ(resolve_plain_scalar("~"), nullptr);
  EXPECT_EQ(resolve_plain_scalar("0755"), 493);
  EXPECT_EQ(resolve_plain_scalar("0x1F"), 31);
  EXPECT_EQ(resolve_plain_scalar("1_000"), 1000);
  EXPECT_EQ(resolve_plain_scalar("-12"), -12);
  EXPECT_EQ(resolve_plain_scalar("1:30"), 90);
  EXPECT_EQ(resolve_plain_scalar("1.5"), 1.5);
  EXPECT_EQ(resolve_plain_scalar("1e3"), "1e3");  // YAML 1.1 floats need a dot
  EXPECT_EQ(resolve_plain_scalar("1.0e+3"), 1000.0);
  EXPECT_EQ(resolve_plain_scalar("500m"), "500m");
  EXPECT_EQ(resolve_plain_scalar("nvidia-l4"), "nvidia-l4");
  EXPECT_EQ(resolve_scalar("80", "!"), "80");
  EXPECT_EQ(resolve_scalar("80", "tag:yaml.org,2002:str"), "80");
  EXPECT_EQ(resolve_scalar("7", "tag:yaml.org,2002:int"), 7);
}

}  // namespace
}  // namespace gkebuild::validate
