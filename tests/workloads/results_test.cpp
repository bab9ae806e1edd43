// The shared result line, precision parsing and the timing summary.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "workloads/common/errors.h"
#include "workloads/common/precision.h"
#include "workloads/common/results.h"
#include "workloads/common/stats.h"

namespace gkebuild::workloads {
namespace {

TEST(ResultWriter, WritesOneCompleteJsonObjectALine) {
  std::ostringstream out;
  ResultWriter writer(out, "gemm-bench", {{"kind", "cpu"}, {"name", "test"}});
  writer.write({"throughput", 1.25, "TFLOP/s", "bf16", {{"m", 8}}, 3, {{"min", 1.0}}});
  writer.write({"time", 2.0, "ms", "bf16", {{"m", 8}}, 3, {}});
  std::istringstream lines(out.str());
  std::string line;
  int count = 0;
  while (std::getline(lines, line)) {
    const auto j = nlohmann::json::parse(line);
    for (const char* key : {"schema", "workload", "device", "precision", "shape", "metric", "value", "unit",
                            "repetitions", "timestamp", "host"}) {
      EXPECT_TRUE(j.contains(key)) << key << " missing in " << line;
    }
    EXPECT_EQ(j["schema"], kResultSchema);
    EXPECT_EQ(j["device"]["kind"], "cpu");
    EXPECT_EQ(j["repetitions"], 3);
    EXPECT_TRUE(j["host"].contains("cpu_model"));
    EXPECT_EQ(j["timestamp"].get<std::string>().back(), 'Z');
    ++count;
  }
  EXPECT_EQ(count, 2);
  EXPECT_EQ(nlohmann::json::parse(out.str().substr(0, out.str().find('\n')))["extra"]["min"], 1.0);
}

// The termination log (what Kubernetes hands back in the pod's status, 4096 bytes at most) holds
// the result lines, whole, while they fit, then a note that the rest are in the log.
TEST(ResultWriter, KeepsWholeResultLinesInTheTerminationLog) {
  const auto path = std::filesystem::temp_directory_path() / ("termination-log-" + std::to_string(::getpid()));
  std::ostringstream out;
  ResultWriter writer(out, "gemm-bench", {{"kind", "cpu"}}, path.string());
  writer.write({"throughput", 1.25, "TFLOP/s", "bf16", {{"m", 8}}, 3, {}});
  auto read = [&] {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  EXPECT_EQ(read(), out.str());  // one line: the same in both
  for (int i = 0; i < 40; ++i) writer.write({"time", 2.0 + i, "ms", "bf16", {{"m", 8}}, 3, {}});
  const std::string kept = read();
  EXPECT_LE(kept.size(), kTerminationLogLimit);
  EXPECT_TRUE(kept.ends_with(std::string("\n") + kResultsTruncated + "\n")) << kept;
  const std::string lines = kept.substr(0, kept.size() - std::string(kResultsTruncated).size() - 1);
  EXPECT_TRUE(out.str().starts_with(lines));  // whole lines, in order, none cut
  std::filesystem::remove(path);
}

TEST(ResultWriter, RefusesNonFiniteValues) {
  std::ostringstream out;
  ResultWriter writer(out, "gemm-bench", {{"kind", "cpu"}});
  EXPECT_THROW(writer.write({"throughput", NAN, "TFLOP/s", "fp32", {}, 1, {}}), RunError);
  EXPECT_THROW(writer.write({"throughput", INFINITY, "TFLOP/s", "fp32", {}, 1, {}}), RunError);
  EXPECT_TRUE(out.str().empty());
}

TEST(PrecisionParsing, AcceptsListsAndSuggestsForTypos) {
  EXPECT_EQ(parse_precisions({"fp32,bf16", "fp32", "tf32"}),
            (std::vector<Precision>{Precision::fp32, Precision::bf16, Precision::tf32}));
  try {
    parse_precision("bf61");
    FAIL() << "bf61 accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown precision 'bf61'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("did you mean 'bf16'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_precisions({"fp32,"}), UsageError);
}

TEST(Summary, MedianMinMaxMean) {
  const Summary odd = summarize({5, 1, 3});
  EXPECT_EQ(odd.median, 3);
  EXPECT_EQ(odd.min, 1);
  EXPECT_EQ(odd.max, 5);
  EXPECT_EQ(odd.mean, 3);
  EXPECT_EQ(summarize({4, 1, 3, 2}).median, 2.5);
  EXPECT_THROW(summarize({}), gkebuild::Error);
}

}  // namespace
}  // namespace gkebuild::workloads
