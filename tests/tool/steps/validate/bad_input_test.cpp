// Hostile input: binary data, invalid UTF-8, huge files, deep nesting, alias bombs.
// Each gets one clear finding, in bounded time and memory, and never a crash.
#include <gtest/gtest.h>

#include "tool/steps/validate/yaml_loader.h"

namespace gkebuild::validate {
namespace {

Finding only_finding(const LoadResult& r) {
  EXPECT_EQ(r.findings.size(), 1u);
  return r.findings.empty() ? Finding{} : r.findings[0];
}

TEST(BadInput, BinaryFileNamesTheNulByte) {
  std::string text = "apiVersion: v1\nkind: Po";
  text += '\0';
  text += "\x01\x02";
  auto r = load_manifests(text, "bin.yaml");
  Finding f = only_finding(r);
  EXPECT_EQ(f.line, 2);
  EXPECT_EQ(f.column, 9);
  EXPECT_NE(f.message.find("binary"), std::string::npos);
}

TEST(BadInput, InvalidUtf8NamesTheByte) {
  auto r = load_manifests("a: ok\nb: caf\xC3\x28\n", "latin.yaml");
  Finding f = only_finding(r);
  EXPECT_EQ(f.line, 2);
  EXPECT_EQ(f.column, 7);
  EXPECT_NE(f.message.find("UTF-8"), std::string::npos);
  EXPECT_EQ(load_manifests("a: \xED\xA0\x80\n", "surrogate.yaml").findings.size(), 1u);
  EXPECT_EQ(load_manifests("a: \xC0\xAF\n", "overlong.yaml").findings.size(), 1u);
  EXPECT_TRUE(load_manifests("a: caf\xC3\xA9 \xF0\x9F\x9A\x80\n", "ok.yaml").findings.empty());
}

TEST(BadInput, HundredMegabyteFileIsRefusedBySize) {
  std::string text(100u << 20, '#');
  auto r = load_manifests(text, "big.yaml");
  Finding f = only_finding(r);
  EXPECT_EQ(f.rule, "yaml-limits");
  EXPECT_NE(f.message.find("larger than the 32 MiB limit"), std::string::npos);
}

TEST(BadInput, TenThousandLevelsOfNesting) {
  std::string flow = "a: " + std::string(10000, '[') + std::string(10000, ']') + "\n";
  Finding f = only_finding(load_manifests(flow, "deep-flow.yaml"));
  EXPECT_EQ(f.rule, "yaml-limits");
  // "- - - … x": 10,000 nested block sequences on one line.
  std::string block;
  for (int i = 0; i < 10000; ++i) block += "- ";
  block += "x\n";
  Finding g = only_finding(load_manifests(block, "deep-block.yaml"));
  EXPECT_EQ(g.rule, "yaml-limits");
  EXPECT_NE(g.message.find("nesting"), std::string::npos);
}

TEST(BadInput, BillionLaughsIsBounded) {
  std::string text = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'j'; ++c)
    text += std::string(1, c) + ": &" + c + " [*" + char(c - 1) + ", *" + char(c - 1) + ", *" + char(c - 1) +
            ", *" + char(c - 1) + ", *" + char(c - 1) + ", *" + char(c - 1) + ", *" + char(c - 1) + ", *" +
            char(c - 1) + ", *" + char(c - 1) + ", *" + char(c - 1) + "]\n";
  Finding f = only_finding(load_manifests(text, "lol.yaml"));
  EXPECT_EQ(f.rule, "yaml-limits");
  EXPECT_NE(f.message.find("alias"), std::string::npos);
}

// A node that contains itself: infinitely deep once expanded (it crashed the converter).
TEST(BadInput, RecursiveAliasIsBounded) {
  Finding f = only_finding(load_manifests("a: &a [*a]\n", "recursive.yaml"));
  EXPECT_EQ(f.rule, "yaml-limits");
  EXPECT_NE(f.message.find("recursive alias"), std::string::npos) << f.message;
  EXPECT_EQ(f.line, 1);
}

TEST(BadInput, RandomBytesNeverCrash) {
  unsigned state = 12345;
  for (int round = 0; round < 200; ++round) {
    std::string text;
    for (int i = 0; i < 300; ++i) {
      state = state * 1103515245u + 12345u;
      static const char kAlphabet[] = "ab: -[]{}&*!|>'\"#\n  ,?%@`";
      text += kAlphabet[(state >> 16) % (sizeof kAlphabet - 1)];
    }
    auto r = load_manifests(text, "fuzz.yaml");
    for (const auto& f : r.findings) EXPECT_GE(f.line, 1);
  }
}

}  // namespace
}  // namespace gkebuild::validate
