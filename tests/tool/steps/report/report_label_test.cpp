// A row's label names each variable once: a sweep over n and precision, whose result lines
// state both (shape n, precision), is labelled "gemm-bench fp32 k=4096 m=4096 n=4096", not
// "… n=4096 n=4096 precision=fp32" (the demo's sweep, issue 44).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "fixture.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::report {
namespace {

using namespace testing;
namespace fs = std::filesystem;

TEST(ReportLabel, SweepVariablesTheResultStatesAreNotRepeated) {
  gkebuild::testing::TempDir project;
  const std::string run = "gemm-20261122-031500";
  const fs::path runs = project.path() / ".gkebuild/runs";
  fs::create_directories(runs);
  fs::copy(kProject + "/.gkebuild/runs/" + run, runs / run, fs::copy_options::recursive);
  auto record = nlohmann::json::parse(read_file(runs / run / "run.json"));
  // The sweep point: n as the shape has it, precision as the line has it, and one it does not.
  for (auto& job : record["jobs"]) job["parameters"] = {{"n", 4096}, {"precision", "fp32"}, {"reps", 5}};
  write_file_atomically(runs / run / "run.json", record.dump(2));

  const Report report = build_report({load_run_argument(run, project.path())}, fixture_catalog(), "");
  int gemm_rows = 0;
  for (const auto& row : report.throughput) {
    if (row.key.workload != "gemm-bench") continue;  // the run's mnist lines have no n in their shape
    ++gemm_rows;
    EXPECT_EQ(row.key.parameters, "reps=5");
    EXPECT_EQ(row.key.title(), "gemm-bench fp32 k=4096 m=4096 n=4096 reps=5");
  }
  EXPECT_GT(gemm_rows, 0);
}

}  // namespace
}  // namespace gkebuild::report
