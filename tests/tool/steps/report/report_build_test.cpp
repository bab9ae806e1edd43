// The fixture runs give figures worked out by hand (prices from fixtures/catalog.yaml: whole
// nodes, USD per node-hour on demand/spot: T4 (n1-standard-4 0.14/0.02 + T4 0.36/0.18) 0.50/0.20,
// L4 (g2-standard-8 0.28/0.14 + L4 0.72/0.36) 1.00/0.50, GB200 without a price).
#include <gtest/gtest.h>

#include <tuple>

#include <nlohmann/json.hpp>

#include "fixture.h"
#include "tool/steps/report/report_writers.h"

namespace gkebuild::report {
namespace {

using namespace testing;
using nlohmann::json;

const std::vector<std::string> kGoodRuns = {"gemm-20261122-031500", "mnist-20261122-040000"};

// Relative 1e-12: the same figure by a different order of the same operations.
void expect_figure(const json& value, double expected) {
  ASSERT_TRUE(value.is_number()) << value.dump();
  EXPECT_NEAR(value.get<double>(), expected, 1e-12 * std::abs(expected)) << value.dump();
}

const json& row_of(const json& document, const std::string& workload, const std::string& accelerator) {
  for (const auto& row : document["throughput"])
    if (row["case"]["workload"] == workload && row["accelerator"] == accelerator) return row;
  throw std::runtime_error("no row " + workload + " " + accelerator);
}

TEST(ReportBuild, MarkdownCarriesTheHandComputedFigures) {
  std::string md = write_markdown(fixture_report(kGoodRuns, "nvidia-tesla-t4"));
  EXPECT_TRUE(contains(md, "Cost counts list prices in us-central1 (catalog of 2026-11-20) of whole nodes: vCPUs, "
                           "memory and every GPU the machine type carries, at the provisioning used; not disks, "
                           "network, committed-use or sustained-use discounts; USD per node-hour. Baseline: "
                           "nvidia-tesla-t4."))
      << md;
  EXPECT_TRUE(contains(md, "### gemm-bench fp32 k=4096 m=4096 n=4096 (TFLOP/s)\n")) << md;
  EXPECT_TRUE(contains(md,
      "| accelerator | values | median TFLOP/s | min | max | wall time per run | GPU-hours | cost on demand | "
      "cost spot | cost as run | on demand per 10^15 FLOP | spot per 10^15 FLOP | speed-up vs nvidia-tesla-t4 | "
      "cost ratio vs nvidia-tesla-t4 | outliers |\n")) << md;
  // GB200: median of 40, 40, 40; 30 s = 0.008333 GPU-hours; no price; 40 / 4.2 = 9.52x.
  // L4 (a spot Job): median of 2, 8, 8.4, 8.8 = (8 + 8.4) / 2 = 8.2; 60 s = 1/60 node-hour x 1.00
  //     = $0.01667 (spot x 0.50 = $0.008333, which is also the cost as run); per 10^15 FLOP =
  //     1.00 x (1000 / 8.2) / 3600 = 0.2778 / 8.2 = $0.03388, from 0.2778 / 8.8 = $0.03157 to
  //     0.2778 / 2 = $0.1389; spot 0.1389 / 8.2 = $0.01694 (0.01578 - 0.06944); speed-up
  //     8.2 / 4.2 = 1.95x; cost ratio (0.2778 / 8.2) / (0.1389 / 4.2) = 1.02x; outlier 2.
  // T4 (on demand): median of 4, 4.4, 4.2 = 4.2; 120 s = 1/30 node-hour x 0.50 = $0.01667 (spot
  //     x 0.20 = $0.006667); per 10^15 FLOP 0.1389 / 4.2 = $0.03307 (0.1389 / 4.4 = 0.03157 -
  //     0.1389 / 4 = 0.03472); spot 0.05556 / 4.2 = $0.01323 (0.01263 - 0.01389).
  EXPECT_TRUE(contains(md,
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n"
      "| nvidia-gb200 | 3 | 40 | 40 | 40 | 30 s | 0.008333 | n/a | n/a | n/a | n/a | n/a | 9.52x | n/a | - |\n"
      "| nvidia-l4 | 4 | 8.2 | 2 | 8.8 | 60 s | 0.01667 | $0.01667 | $0.008333 | $0.008333 | "
      "$0.03388 ($0.03157-$0.1389) | $0.01694 ($0.01578-$0.06944) | 1.95x | 1.02x | 2 |\n"
      "| nvidia-tesla-t4 | 3 | 4.2 | 4 | 4.4 | 120 s | 0.03333 | $0.01667 | $0.006667 | $0.01667 | "
      "$0.03307 ($0.03157-$0.03472) | $0.01323 ($0.01263-$0.01389) | 1.00x | 1.00x | - |\n")) << md;
  // Training: T4 median of 20000, 24000, 22000 = 22000 samples/s; an epoch is 60000 samples:
  //   0.50 x (60000 / 22000) / 3600 = $0.0003788 (at 24000: $0.0003472, at 20000: $0.0004167);
  //   spot 0.20 x: $0.0001515 ($0.0001389-$0.0001667); per 1,000 samples 0.50 x (1000 / 22000) /
  //   3600 = $0.000006313 (0.000005787-0.000006944), spot $0.000002525; 40 s = 0.01111 node-hours
  //   = $0.005556 ($0.002222 spot).
  // CPU: median of 1000, 1200, 1100 = 1100; 50 s; no price; 1100 / 22000 = 0.05x.
  //   Time per epoch: 60000 / 22000 = 2.727 s; the CPU's 60000 / 1100 = 54.55 s.
  EXPECT_TRUE(contains(md,
      "| nvidia-tesla-t4 | 3 | 22000 | 20000 | 24000 | 40 s | 0.01111 | $0.005556 | $0.002222 | $0.005556 | 2.73 s | "
      "$0.0003788 ($0.0003472-$0.0004167) | $0.0001515 ($0.0001389-$0.0001667) | "
      "$0.000006313 ($0.000005787-$0.000006944) | $0.000002525 ($0.000002315-$0.000002778) | 1.00x | 1.00x | - |\n"
      "| cpu (local) | 3 | 1100 | 1000 | 1200 | 50 s | n/a | n/a | n/a | n/a | 54.5 s | n/a | n/a | n/a | n/a | 0.05x | "
      "n/a | - |\n"))
      << md;
  // 0.6745 x (2 - 8.2) / MAD; MAD = median(0.2, 0.2, 0.6, 6.2) = 0.4, so z = -10.45.
  EXPECT_TRUE(contains(md, "- gemm-bench fp32 k=4096 m=4096 n=4096, nvidia-l4: 2 TFLOP/s (modified z -10.5, "
                           "median 8.2): Job gemm-l4 of gemm-20261122-031500, "))
      << md;
  // The last test accuracy each Job printed.
  EXPECT_TRUE(contains(md, "| mnist-train fp32 batch=64 classes=10 hidden=128 inputs=784 model=mlp test_samples=10000 "
                           "train_samples=60000 | test_accuracy | nvidia-tesla-t4 | 1 | 0.97 | 0.97 | 0.97 | fraction |"))
      << md;
  EXPECT_TRUE(contains(md, "| nvidia-tesla-t4 | n1-standard-4 | 0.5 | 0.2 | test price, 2026-11-20; GPU: test price, "
                           "2026-11-20 | - |"))
      << md;
  EXPECT_TRUE(contains(md, "| nvidia-gb200 | a4x-highgpu-4g | n/a | n/a | - | No per-GPU price in the sources read. |"))
      << md;
  EXPECT_TRUE(contains(md, "- Cost counts whole nodes at the catalog's list prices in us-central1:")) << md;
  EXPECT_TRUE(contains(md, "Not counted: disks, network, GKE's cluster management fee, committed-use and "
                           "sustained-use discounts."))
      << md;
  EXPECT_TRUE(contains(md, "- nvidia-gb200: no on-demand price for nvidia-gb200 in the catalog (No per-GPU price")) << md;
  EXPECT_TRUE(contains(md, "- cpu (local) ran without a GPU on the local machine: no cloud price applies"));
  EXPECT_FALSE(contains(md, "Skipped result lines"));
}

TEST(ReportBuild, JsonCarriesTheSameFiguresAtFullPrecision) {
  auto document = json::parse(write_json(fixture_report(kGoodRuns, "nvidia-tesla-t4")));
  EXPECT_EQ(document["schema"], "gkebuild.report.v1");
  EXPECT_EQ(document["catalog_date"], "2026-11-20");
  EXPECT_EQ(document["throughput"].size(), 5u);
  const json& l4 = row_of(document, "gemm-bench", "nvidia-l4");
  expect_figure(l4["median"], 8.2);
  expect_figure(l4["min"], 2.0);
  expect_figure(l4["max"], 8.8);
  EXPECT_EQ(l4["values"], 4);
  expect_figure(l4["wall_seconds"], 60);
  expect_figure(l4["gpu_hours"], 1.0 / 60);
  EXPECT_EQ(l4["machine_type"], "g2-standard-8");
  expect_figure(l4["node_hours"], 1.0 / 60);
  expect_figure(l4["cost_on_demand_usd"], 1.0 / 60);
  expect_figure(l4["cost_spot_usd"], 0.5 / 60);
  expect_figure(l4["cost_as_run_usd"], 0.5 / 60);  // the Job ran on spot
  EXPECT_EQ(l4["cost_per_unit"][0]["unit"], "10^15 FLOP");
  const double l4_per_flop = 1000.0 / 3600;  // USD per 10^15 FLOP at 1 TFLOP/s on a 1.00 node
  expect_figure(l4["cost_per_unit"][0]["on_demand_usd"], l4_per_flop / 8.2);
  expect_figure(l4["cost_per_unit"][0]["on_demand_usd_range"][0], l4_per_flop / 8.8);
  expect_figure(l4["cost_per_unit"][0]["on_demand_usd_range"][1], l4_per_flop / 2);
  expect_figure(l4["cost_per_unit"][0]["spot_usd"], l4_per_flop / 2 / 8.2);
  expect_figure(l4["speedup"], 8.2 / 4.2);
  expect_figure(l4["cost_ratio"], (l4_per_flop / 8.2) / (l4_per_flop / 2 / 4.2));
  ASSERT_EQ(l4["outliers"].size(), 1u);
  expect_figure(l4["outliers"][0]["value"], 2.0);
  expect_figure(l4["outliers"][0]["z"], 0.6745 * (2.0 - 8.2) / 0.4);
  EXPECT_EQ(l4["outliers"][0]["job"], "gemm-l4");
  EXPECT_TRUE(l4["outliers"][0]["where"].get<std::string>().ends_with("gemm-20261122-031500/results.jsonl:7"));

  const json& gb200 = row_of(document, "gemm-bench", "nvidia-gb200");
  EXPECT_TRUE(gb200["cost_on_demand_usd"].is_null());
  EXPECT_TRUE(gb200["cost_per_unit"][0]["on_demand_usd"].is_null());
  EXPECT_TRUE(gb200["cost_ratio"].is_null());
  expect_figure(gb200["speedup"], 40 / 4.2);

  const json& t4 = row_of(document, "mnist-train", "nvidia-tesla-t4");
  EXPECT_EQ(t4["cost_per_unit"][0]["unit"], "epoch");
  expect_figure(t4["cost_per_unit"][0]["on_demand_usd"], 0.5 * (60000.0 / 22000) / 3600);
  EXPECT_EQ(t4["cost_per_unit"][1]["unit"], "1,000 samples");
  expect_figure(t4["cost_per_unit"][1]["spot_usd"], 0.2 * (1000.0 / 22000) / 3600);
  expect_figure(t4["gpu_hours"], 40.0 / 3600);
  expect_figure(t4["cost_as_run_usd"], 0.5 * 40 / 3600);  // on demand

  const json& cpu = row_of(document, "mnist-train", "cpu (local)");
  EXPECT_TRUE(cpu["label"].is_null());
  EXPECT_TRUE(cpu["gpu_hours"].is_null());
  EXPECT_TRUE(cpu["cost_spot_usd"].is_null());
  EXPECT_TRUE(cpu["cost_as_run_usd"].is_null());  // the local machine: no cloud price
  expect_figure(cpu["median"], 1100);
  expect_figure(cpu["speedup"], 1100.0 / 22000);
  EXPECT_EQ(document["runs"][1]["target"], "local");
  EXPECT_EQ(document["runs"][0]["result_lines"], 15);
}

TEST(ReportBuild, WithoutABaselineTheSlowestOfEachCaseIsOne) {
  auto document = json::parse(write_json(fixture_report(kGoodRuns)));
  EXPECT_TRUE(document["baseline"].is_null());
  expect_figure(row_of(document, "gemm-bench", "nvidia-tesla-t4")["speedup"], 1);
  expect_figure(row_of(document, "mnist-train", "cpu (local)")["speedup"], 1);
  expect_figure(row_of(document, "mnist-train", "nvidia-tesla-t4")["speedup"], 20);
  // The CPU has no price, so nothing has a cost ratio against it.
  EXPECT_TRUE(row_of(document, "mnist-train", "nvidia-tesla-t4")["cost_ratio"].is_null());
}

TEST(ReportBuild, AnotherBaselineTurnsTheRatios) {
  auto document = json::parse(write_json(fixture_report(kGoodRuns, "nvidia-l4")));
  const json& t4 = row_of(document, "gemm-bench", "nvidia-tesla-t4");
  expect_figure(t4["speedup"], 4.2 / 8.2);
  expect_figure(t4["cost_ratio"], (0.1 / 4.2) / (0.2 / 8.2));
  // The L4 did not train: the training case has no ratios, and a note says why.
  EXPECT_TRUE(row_of(document, "mnist-train", "nvidia-tesla-t4")["speedup"].is_null());
  bool noted = false;
  for (const auto& note : document["notes"])
    noted = noted || note.get<std::string>().starts_with("The baseline nvidia-l4 did not measure mnist-train");
  EXPECT_TRUE(noted);
}

TEST(ReportBuild, CsvHasOneRowPerAcceleratorCaseAndUnitOfWork) {
  std::string csv = write_csv(fixture_report(kGoodRuns, "nvidia-tesla-t4"));
  // 3 GEMM rows with one unit each, 2 training rows with two units each, the 2 test_accuracy
  // rows (CSV printed only the throughput rows before) and the header.
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 10);
  // No Job has a sweep point: no variable columns, and `last` empty for a throughput.
  EXPECT_TRUE(contains(csv, "gemm-bench,fp32,k=4096 m=4096 n=4096,throughput,TFLOP/s,nvidia-l4,1,4,1,8.2,2.0,8.8,,"
                            "60.0,"))
      << csv;
  EXPECT_TRUE(contains(csv, ",test_accuracy,fraction,nvidia-tesla-t4,1,1,1,")) << csv;
  EXPECT_TRUE(contains(csv, ",10^15 FLOP,")) << csv;
  EXPECT_TRUE(contains(csv, ",\"1,000 samples\",")) << csv;
}

// The accelerator comparison of examples/mnist: the CNN (fp16) on spot L4 and T4 nodes, the
// T4's first pod preempted in epoch 2 and its replacement resumed. Per accelerator: samples/s,
// time and cost per epoch, and the last epoch's test accuracy.
TEST(ReportBuild, CnnRunGivesTimeAndCostPerEpochPerAccelerator) {
  const Report report = fixture_report({"cnn-20261123-080000"}, "nvidia-tesla-t4");
  const std::string md = write_markdown(report);
  EXPECT_TRUE(contains(md, "### mnist-train fp16 batch=64 classes=10 conv1=8 conv2=16 flat=400 hidden=128 inputs=784 "
                           "kernel=5 model=cnn test_samples=10000 train_samples=60000 lr=0.01 (samples/s)\n"))
      << md;
  EXPECT_TRUE(contains(md, "| GPU-hours | cost on demand | cost spot | cost as run | time per epoch | on demand per epoch | "
                           "spot per epoch | on demand per 1,000 samples |"))
      << md;
  // Both Jobs ran on spot (their cost as run). L4 node 1.00/0.50: median of 40000, 48000, 50000
  //   = 48000 samples/s; an epoch of 60000 samples takes 1.25 s: 1.00 x 1.25 / 3600 = $0.0003472
  //   (at 50000: $0.0003333, at 40000: $0.0004167), spot half; 30 s = 0.008333 node-hours =
  //   $0.008333 ($0.004167 spot); 48000 / 20000 = 2.4x.
  // T4 node 0.50/0.20: median of 15000, 20000, 24000 = 20000; 3 s an epoch: 0.50 x 3 / 3600 =
  //   $0.0004167 (at 24000: $0.0003472, at 15000: $0.0005556), spot $0.0001667 ($0.0001389-
  //   $0.0002222); 60 s = 0.01667 node-hours = $0.008333 ($0.003333 spot).
  EXPECT_TRUE(contains(md, "| nvidia-l4 | 3 | 48000 | 40000 | 50000 | 30 s | 0.008333 | $0.008333 | $0.004167 | "
                           "$0.004167 | 1.25 s | $0.0003472 ($0.0003333-$0.0004167) | $0.0001736 ($0.0001667-$0.0002083) | "))
      << md;
  EXPECT_TRUE(contains(md, "| nvidia-tesla-t4 | 3 | 20000 | 15000 | 24000 | 60 s | 0.01667 | $0.008333 | $0.003333 | "
                           "$0.003333 | 3 s | $0.0004167 ($0.0003472-$0.0005556) | $0.0001667 ($0.0001389-$0.0002222) | "))
      << md;
  EXPECT_TRUE(contains(md, "| 2.40x | 0.83x | - |\n")) << md;  // L4: (0.0003472 / 0.0004167) the cost ratio
  EXPECT_TRUE(contains(md, "| test_accuracy | nvidia-l4 | 1 | 0.985 | 0.985 | 0.985 | fraction |")) << md;
  EXPECT_TRUE(contains(md, "| test_accuracy | nvidia-tesla-t4 | 1 | 0.984 | 0.984 | 0.984 | fraction |")) << md;
  const json document = json::parse(write_json(report));
  const json& l4 = row_of(document, "mnist-train", "nvidia-l4");
  EXPECT_EQ(l4["cost_per_unit"][0]["unit"], "epoch");
  expect_figure(l4["cost_per_unit"][0]["seconds"], 60000.0 / 48000);
  expect_figure(l4["cost_per_unit"][0]["spot_usd"], 0.5 * (60000.0 / 48000) / 3600);
  const std::string csv = write_csv(report);
  EXPECT_TRUE(contains(csv, ",nvidia-tesla-t4,1,3,1,20000.0,15000.0,24000.0,,60.0,")) << csv;
  // cost_as_run_usd (the spot figure: the Job ran on spot), then seconds_per_unit and the costs.
  EXPECT_TRUE(contains(csv, ",cost_on_demand_usd,cost_spot_usd,cost_as_run_usd,work_unit,")) << csv;
  EXPECT_TRUE(contains(csv, ",0.0033333333333333") && contains(csv, ",epoch,3.0,0.00041666")) << csv;
}

TEST(ReportBuild, OtherMetricsKeepEveryLineButEarlierEpochs) {
  // An indexed Job: each pod prints a max_error (no epoch) and a loss per epoch.
  LoadedRun run;
  run.record.run = "r";
  runrecord::JobRecord job;
  job.name = "j";
  job.accelerator = "nvidia-l4";
  job.gpus = 1;
  run.record.jobs.push_back(job);
  std::string text;
  for (auto [metric, value, epoch] : std::vector<std::tuple<std::string, double, int>>{
           {"max_error", 1e-7, 0}, {"loss", 2.0, 1}, {"loss", 0.5, 2}, {"max_error", 3e-7, 0}, {"loss", 2.5, 1},
           {"loss", 0.7, 2}}) {
    json line = {{"schema", "gkebuild.workload.v1"}, {"workload", "w"}, {"metric", metric}, {"value", value},
                 {"unit", "u"}, {"job", "j"}};
    if (epoch) line["extra"] = {{"epoch", epoch}};
    text += line.dump() + "\n";
  }
  run.results = runrecord::parse_results(text, "results.jsonl");
  auto report = build_report({run}, fixture_catalog(), "");
  ASSERT_EQ(report.metrics.size(), 2u);
  EXPECT_EQ(report.metrics[0].key.metric, "loss");  // epoch 2 of both pods: 0.5 and 0.7
  EXPECT_EQ(report.metrics[0].samples, 2u);
  EXPECT_DOUBLE_EQ(report.metrics[0].median, 0.6);
  EXPECT_EQ(report.metrics[1].key.metric, "max_error");
  EXPECT_EQ(report.metrics[1].samples, 2u);
  EXPECT_DOUBLE_EQ(report.metrics[1].max, 3e-7);
  EXPECT_TRUE(report.throughput.empty());
  EXPECT_EQ(empty_report_reason(report), "");
}

}  // namespace
}  // namespace gkebuild::report

namespace gkebuild::report {
namespace {

using namespace testing;

const std::string kSweepRun = "train-20261122-080000";  // lr 0.1, 0.01, 0.001 x seed 0, 1: one loss each

std::map<std::string, const MetricRow*> rows_by_parameters(const Report& report) {
  std::map<std::string, const MetricRow*> rows;
  for (const auto& row : report.metrics) rows[row.key.parameters] = &row;
  return rows;
}

// Losses at lr 0.1, 0.01 and 0.001 are never one median: each sweep point is a row of its own.
TEST(ReportSweep, EachSweepPointIsARowOfItsOwn) {
  const Report report = fixture_report({kSweepRun});
  ASSERT_EQ(report.metrics.size(), 6u);
  const auto rows = rows_by_parameters(report);
  ASSERT_TRUE(rows.count("lr=0.1 seed=1"));
  EXPECT_EQ(rows.at("lr=0.1 seed=1")->samples, 1u);
  EXPECT_DOUBLE_EQ(rows.at("lr=0.1 seed=1")->median, 0.8);
  EXPECT_EQ(rows.at("lr=0.1 seed=1")->accelerator, "nvidia-l4");
  const std::string markdown = write_markdown(report);
  EXPECT_TRUE(contains(markdown, "| train lr=0.001 seed=0 | loss | nvidia-l4 | 1 | 0.3 |")) << markdown;
}

// --group-by seed pools the seeds of each point, and only them.
TEST(ReportSweep, GroupByPoolsOnlyOverTheNamedVariables) {
  const Report report = build_report({load_run_argument(kSweepRun, kProject)}, fixture_catalog(), "", {"seed"});
  ASSERT_EQ(report.metrics.size(), 3u);
  const auto rows = rows_by_parameters(report);
  for (const auto& [point, median] : std::map<std::string, double>{{"lr=0.1", 0.85}, {"lr=0.01", 0.6},
                                                                    {"lr=0.001", 0.35}}) {
    ASSERT_TRUE(rows.count(point)) << point;
    EXPECT_EQ(rows.at(point)->samples, 2u) << point;
    EXPECT_DOUBLE_EQ(rows.at(point)->median, median) << point;
  }
  const json document = json::parse(write_json(report));
  EXPECT_EQ(document["metrics"][0]["case"]["parameters"], "lr=0.001") << document.dump();
  // Every variable pooled: one row.
  EXPECT_EQ(build_report({load_run_argument(kSweepRun, kProject)}, fixture_catalog(), "", {"seed", "lr"})
                .metrics.size(),
            1u);
}

TEST(ReportSweep, GroupByAVariableNoJobHasIsBadInput) {
  try {
    build_report({load_run_argument(kSweepRun, kProject)}, fixture_catalog(), "", {"sed"});
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    EXPECT_TRUE(contains(error.what(), "--group-by sed: no Job of these runs has a sweep variable 'sed' "
                                       "(did you mean 'seed'?); their variables: lr, seed"))
        << error.what();
  }
}

}  // namespace
}  // namespace gkebuild::report
