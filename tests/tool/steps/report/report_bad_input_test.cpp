// Bad input: unusable result lines, mixed units, an accelerator without a price or not in the
// catalog, a failed Job, an empty run, an unknown baseline or run.
#include <gtest/gtest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "base/error.h"
#include "fixture.h"
#include "tool/steps/report/report_writers.h"

namespace gkebuild::report {
namespace {

using namespace testing;

TEST(ReportBadInput, EveryUnusableLineIsNamedAndCounted) {
  auto report = fixture_report({"broken-20261122-050000"});
  ASSERT_EQ(report.skipped.size(), 5u);
  std::vector<std::pair<int, std::string>> expected = {
      {2, "corrupt JSON at column 61: "},
      {3, "missing field 'unit'"},
      {4, "schema \"someone.else.v1\", not \"gkebuild.workload.v1\""},
      {5, "job 'no-such-job' is not in run.json"},
      {6, "non-finite value (NaN or Infinity)"},
  };
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_TRUE(report.skipped[i].where.file.ends_with("broken-20261122-050000/results.jsonl"));
    EXPECT_EQ(report.skipped[i].where.line, expected[i].first);
    EXPECT_TRUE(report.skipped[i].reason.starts_with(expected[i].second)) << report.skipped[i].reason;
  }
  ASSERT_EQ(report.runs.size(), 1u);
  EXPECT_EQ(report.runs[0].result_lines, 3u);
  EXPECT_EQ(report.runs[0].skipped_lines, 5u);
  std::string md = write_markdown(report);
  EXPECT_TRUE(contains(md, "## Skipped result lines (5)\n")) << md;
  EXPECT_TRUE(contains(md, "/results.jsonl:3: missing field 'unit'\n")) << md;
  EXPECT_TRUE(contains(md, "3 Jobs, 3 result lines used, 5 skipped")) << md;
  auto document = nlohmann::json::parse(write_json(report));
  EXPECT_EQ(document["skipped"].size(), 5u);
  EXPECT_EQ(document["runs"][0]["skipped_lines"], 5);
}

TEST(ReportBadInput, MixedUnitsAreSeparateRowsWithANote) {
  std::string md = write_markdown(fixture_report({"broken-20261122-050000"}));
  EXPECT_TRUE(contains(md, "### gemm-bench fp16 k=1024 m=1024 n=1024 (GFLOP/s)\n")) << md;
  EXPECT_TRUE(contains(md, "### gemm-bench fp16 k=1024 m=1024 n=1024 (TFLOP/s)\n")) << md;
  EXPECT_TRUE(contains(md, "- Mixed units: throughput of gemm-bench fp16 k=1024 m=1024 n=1024 comes in 2 units "
                           "(GFLOP/s: 1 line, TFLOP/s: 2 lines); each unit has its own rows and they are not "
                           "compared.\n"))
      << md;
}

TEST(ReportBadInput, GflopsAlsoCostPer10To15Flop) {
  // 9000 GFLOP/s on a T4 node (n1-standard-4 + T4) at 0.50 USD/h: 0.50 x (10^6 / 9000) / 3600 =
  // $0.01543 per 10^15 FLOP.
  auto report = fixture_report({"broken-20261122-050000"});
  ASSERT_EQ(report.throughput.front().key.unit, "GFLOP/s");
  ASSERT_EQ(report.throughput.front().unit_costs.size(), 1u);
  EXPECT_EQ(report.throughput.front().unit_costs[0].unit, "10^15 FLOP");
  EXPECT_NEAR(*report.throughput.front().unit_costs[0].on_demand, 0.5 * (1e6 / 9000) / 3600, 1e-15);
}

TEST(ReportBadInput, UnknownAcceleratorAndFailedJobAreNoted) {
  std::string md = write_markdown(fixture_report({"broken-20261122-050000"}));
  EXPECT_TRUE(contains(md, "- nvidia-x9 is not in the accelerator catalog (did you mean 'nvidia-l4'?): its cost is n/a.\n")) << md;
  EXPECT_TRUE(contains(md, "| nvidia-x9 | x9-standard-8 | n/a | n/a | - | not in the catalog |")) << md;
  EXPECT_TRUE(contains(md, "- Job b-fail (broken-20261122-050000) is failed: exit code 2.\n")) << md;
}

// Regression: on an H100 whose driver the container could not load, saxpy fell back to its CPU
// path and the report showed its figures as nvidia-h100-80gb's.
TEST(ReportBadInput, ResultsFromTheCpuPathOfAGpuJobAreNotTheGpus) {
  const Report report = fixture_report({"fallback-20261122-070000"}, "nvidia-l4");
  std::string md = write_markdown(report);
  EXPECT_TRUE(contains(md, "| nvidia-l4 | 1 | 200 | 200 | 200 | 10 s |")) << md;
  EXPECT_TRUE(contains(md, "| cpu path on nvidia-l4 | 1 | 2 | 2 | 2 | 20 s |")) << md;
  EXPECT_TRUE(contains(md, "| 0.01x |")) << md;  // against the GPU's row, the baseline
  EXPECT_TRUE(contains(md, "- cpu path on nvidia-l4: the Jobs had a GPU but their result lines say the workload "
                           "ran on its CPU path")) << md;
}

TEST(ReportBadInput, AnEmptyRunIsBadInputWithAClearMessage) {
  ReportOptions options;
  options.runs = {"empty-20261122-060000"};
  options.project_dir = kProject;
  options.catalog_file = kFixtures + "/catalog.yaml";
  std::ostringstream out, err;
  try {
    run_report(options, out, err);
    ADD_FAILURE() << "an empty run was reported";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kBadInput);
    EXPECT_STREQ(e.what(),
                 "nothing to report: no usable result lines in the run\n"
                 "  empty-20261122-060000: no results.jsonl (no Job has printed a result line yet)");
  }
  EXPECT_EQ(out.str(), "");
}

TEST(ReportBadInput, AnEmptyRunBesideAGoodOneIsReportedAsEmpty) {
  auto report = fixture_report({"gemm-20261122-031500", "empty-20261122-060000"});
  EXPECT_EQ(report.runs.size(), 2u);
  EXPECT_TRUE(contains(write_markdown(report), "- empty-20261122-060000: cluster, created 2026-11-22T06:00:00.000Z, "
                                               "1 Job, 0 result lines used, 0 skipped\n"));
}

TEST(ReportBadInput, AnUnknownBaselineNamesTheAccelerators) {
  try {
    fixture_report({"gemm-20261122-031500"}, "nvidia-l5");
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    EXPECT_EQ(std::string(error.what()),
              "baseline 'nvidia-l5': no run measured its throughput (did you mean 'nvidia-l4'?); accelerators "
              "in these runs: nvidia-gb200, nvidia-l4, nvidia-tesla-t4");
  }
}

TEST(ReportBadInput, AnUnknownRunOrFolderIsASourceError) {
  EXPECT_THROW(fixture_report({"gemm-20261122-031501"}), SourceError);
  EXPECT_THROW(fixture_report({kFixtures}), SourceError);  // a folder without run.json
}

}  // namespace
}  // namespace gkebuild::report
