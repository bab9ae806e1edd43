#include <gtest/gtest.h>

#include "base/error.h"
#include "tests/common/temp_dir.h"
#include "base/atomic_file.h"
#include "tool/core/runrecord/results_file.h"

namespace gkebuild::runrecord {
namespace {

using testing::TempDir;

const std::string kGood =
    R"({"schema":"gkebuild.workload.v1","workload":"gemm-bench","precision":"fp32",)"
    R"("shape":{"m":64,"n":64,"k":64},"metric":"throughput","value":1.5,"unit":"TFLOP/s","job":"j1"})";

TEST(ResultsFile, ReadsValidLinesWithTheirPlace) {
  auto results = parse_results(kGood + "\n\n" + kGood + "\r\n", "results.jsonl");
  ASSERT_EQ(results.lines.size(), 2u);
  EXPECT_TRUE(results.skipped.empty());
  const auto& line = results.lines[1];
  EXPECT_EQ(to_string(line.where), "results.jsonl:3");
  EXPECT_EQ(line.job, "j1");
  EXPECT_EQ(line.workload, "gemm-bench");
  EXPECT_EQ(line.precision, "fp32");
  EXPECT_EQ(line.shape["k"], 64);
  EXPECT_EQ(line.metric, "throughput");
  EXPECT_EQ(line.value, 1.5);
  EXPECT_EQ(line.unit, "TFLOP/s");
}

struct BadLine {
  std::string text;
  std::string reason;
};

TEST(ResultsFile, SkipsBadLinesNamingEachOne) {
  auto without = [](const std::string& key) {
    auto object = nlohmann::json::parse(kGood);
    object.erase(key);
    return object.dump();
  };
  std::vector<BadLine> cases = {
      {R"({"schema":"gkebuild.workload.v1","workload":)", "corrupt JSON at column 45: "},
      {R"({"schema":"NaN")", "corrupt JSON at column 16: "},  // NaN inside a string is text
      {"[1,2]", "not a JSON object"},
      {without("unit"), "missing field 'unit'"},
      {without("job"), "missing field 'job'"},
      {without("schema"), "missing field 'schema'"},
      {R"({"schema":"other.v2","value":1})", "schema \"other.v2\", not \"gkebuild.workload.v1\""},
      {R"({"schema":"gkebuild.workload.v1","workload":"w","metric":"m","unit":"u","job":"j","value":NaN})",
       "non-finite value (NaN or Infinity)"},
      {R"({"schema":"gkebuild.workload.v1","workload":"w","metric":"m","unit":"u","job":"j","value":-Infinity})",
       "non-finite value (NaN or Infinity)"},
      {R"({"schema":"gkebuild.workload.v1","workload":"w","metric":"m","unit":"u","job":"j","value":1e999})",
       "non-finite value"},
      {R"({"schema":"gkebuild.workload.v1","workload":"w","metric":"m","unit":"u","job":"j","value":"7"})",
       "field 'value' is not a number: \"7\""},
      {R"({"schema":"gkebuild.workload.v1","workload":"w","metric":7,"unit":"u","job":"j","value":1})",
       "field 'metric' is not a string"},
  };
  std::string text = kGood + "\n";
  for (const auto& bad : cases) text += bad.text + "\n";
  auto results = parse_results(text, "r.jsonl");
  ASSERT_EQ(results.lines.size(), 1u);
  ASSERT_EQ(results.skipped.size(), cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(to_string(results.skipped[i].where), "r.jsonl:" + std::to_string(i + 2));
    EXPECT_EQ(results.skipped[i].reason.substr(0, cases[i].reason.size()), cases[i].reason)
        << results.skipped[i].reason;
  }
}

TEST(ResultsFile, ATruncatedLastLineIsSkipped) {
  auto results = parse_results(kGood + "\n" + kGood.substr(0, 40), "r.jsonl");
  EXPECT_EQ(results.lines.size(), 1u);
  ASSERT_EQ(results.skipped.size(), 1u);
  EXPECT_EQ(to_string(results.skipped[0].where), "r.jsonl:2");
}

TEST(ResultsFile, MissingFileIsNoResults) {
  TempDir dir;
  auto results = read_results(dir.path());
  EXPECT_FALSE(results.file_found);
  EXPECT_TRUE(results.lines.empty());
}

// Issue 30: results.jsonl planted as a symlink to a secret is refused, not read.
TEST(ResultsFile, ASymlinkedResultsFileIsRefusedUnread) {
  TempDir dir;
  std::filesystem::create_symlink("/proc/self/environ", dir / "results.jsonl");
  EXPECT_THROW(read_results(dir.path()), Error);
}

TEST(ResultsFile, AppendAddsTheJobAndReadsBack) {
  TempDir dir;
  auto result = nlohmann::json::parse(kGood);
  result.erase("job");
  append_result_line(dir.path(), "gemm-l4", result);
  result["value"] = 2.5;
  append_result_line(dir.path(), "gemm-t4", result);
  auto text = read_file(dir.path() / "results.jsonl");
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2);
  auto results = read_results(dir.path());
  EXPECT_TRUE(results.file_found);
  ASSERT_EQ(results.lines.size(), 2u);
  EXPECT_EQ(results.lines[0].job, "gemm-l4");
  EXPECT_EQ(results.lines[1].job, "gemm-t4");
  EXPECT_EQ(results.lines[1].value, 2.5);
  EXPECT_THROW(append_result_line(dir.path(), "j", nlohmann::json::array()), gkebuild::Error);
}

}  // namespace
}  // namespace gkebuild::runrecord
