#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tool/steps/local_runner/line_splitter.h"

namespace gkebuild::local_runner {
namespace {

std::vector<std::string> split(const std::vector<std::string>& chunks, size_t max_line = 1 << 20) {
  LineSplitter splitter(max_line);
  std::vector<std::string> lines;
  auto emit = [&lines](std::string_view line) { lines.emplace_back(line); };
  for (const auto& c : chunks) splitter.feed(c, emit);
  splitter.finish(emit);
  return lines;
}

TEST(LineSplitter, JoinsLinesAcrossChunks) {
  EXPECT_EQ(split({"a\nb", "c\n", "\nd"}), (std::vector<std::string>{"a", "bc", "", "d"}));
}

TEST(LineSplitter, NoTrailingLineAfterAFinalNewline) {
  EXPECT_EQ(split({"x\n"}), (std::vector<std::string>{"x"}));
  EXPECT_TRUE(split({""}).empty());
}

TEST(LineSplitter, CutsOverlongLines) {
  EXPECT_EQ(split({"abcdefg\n"}, 3), (std::vector<std::string>{"abc", "def", "g"}));
}

}  // namespace
}  // namespace gkebuild::local_runner
