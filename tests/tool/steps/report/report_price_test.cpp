// The full price (issue 43): the report prices whole nodes (the machine type's vCPUs and memory
// plus every GPU it carries) for the provisioning each Job recorded, and a CPU-only Job on a
// cluster by its machine type; before, cost was GPU-hours x the GPU's price and a CPU Job had none.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "fixture.h"
#include "tests/common/temp_dir.h"
#include "tool/steps/report/report_writers.h"

namespace gkebuild::report {
namespace {

using namespace testing;
namespace fs = std::filesystem;

const ThroughputRow& row_named(const Report& report, const std::string& accelerator) {
  for (const auto& row : report.throughput)
    if (row.accelerator == accelerator) return row;
  throw std::runtime_error("no row " + accelerator);
}

// The gemm fixture run with its Jobs' provisioning (and one Job's hardware) rewritten.
Report report_with(const std::function<void(nlohmann::json& job)>& edit, gkebuild::testing::TempDir& project) {
  const std::string run = "gemm-20261122-031500";
  const fs::path runs = project.path() / ".gkebuild/runs";
  fs::create_directories(runs);
  fs::copy(kProject + "/.gkebuild/runs/" + run, runs / run, fs::copy_options::recursive);
  auto record = nlohmann::json::parse(read_file(runs / run / "run.json"));
  for (auto& job : record["jobs"]) edit(job);
  write_file_atomically(runs / run / "run.json", record.dump(2));
  return build_report({load_run_argument(run, project.path())}, fixture_catalog(), "");
}

// Fixture nodes (fixtures/catalog.yaml): T4 on n1-standard-4 0.50 on demand / 0.20 spot, L4 on
// g2-standard-8 1.00 / 0.50, n2-standard-8 (no GPU) 0.40 / 0.10.
TEST(ReportPrice, CostAsRunFollowsEachJobsProvisioning) {
  gkebuild::testing::TempDir project;
  const Report report = report_with(
      [](nlohmann::json& job) {
        if (job["name"] == "gemm-t4") job["provisioning"] = "reservation";
        if (job["name"] == "gemm-l4") job["provisioning"] = "flex-start";
        if (job["name"] == "mnist-t4") job["provisioning"] = "spot";
      },
      project);
  // gemm-t4: 120 s on a reservation, billed at on-demand rates: 0.50 / 30 = $0.01667.
  const ThroughputRow& t4 = row_named(report, "nvidia-tesla-t4");
  ASSERT_TRUE(t4.cost_as_run && t4.cost_on_demand && t4.cost_spot);
  EXPECT_NEAR(*t4.cost_as_run, 0.5 * 120 / 3600, 1e-12);
  EXPECT_NEAR(*t4.cost_on_demand, 0.5 * 120 / 3600, 1e-12);
  EXPECT_NEAR(*t4.cost_spot, 0.2 * 120 / 3600, 1e-12);
  EXPECT_EQ(t4.machine_type, "n1-standard-4");
  EXPECT_NEAR(t4.node_hours, 120.0 / 3600, 1e-12);
  // gemm-l4 on flex-start: no DWS price, so no cost as run (never the on-demand figure).
  const ThroughputRow& l4 = row_named(report, "nvidia-l4");
  EXPECT_FALSE(l4.cost_as_run);
  ASSERT_TRUE(l4.cost_on_demand);
  EXPECT_NEAR(*l4.cost_on_demand, 1.0 * 60 / 3600, 1e-12);
  const std::string md = write_markdown(report);
  EXPECT_TRUE(contains(md, "| nvidia-l4 | 4 | 8.2 | 2 | 8.8 | 60 s | 0.01667 | $0.01667 | $0.008333 | n/a |")) << md;
  EXPECT_TRUE(contains(md, "| nvidia-l4 | g2-standard-8 | 1 | 0.5 | test price, 2026-11-20; GPU: test price, "
                           "2026-11-20 | - |"))
      << md;
  // The training row's Job ran on spot: 40 s x 0.20.
  const auto document = nlohmann::json::parse(write_json(report));
  for (const auto& row : document["throughput"])
    if (row["case"]["workload"] == "mnist-train") EXPECT_NEAR(row["cost_as_run_usd"].get<double>(), 0.2 * 40 / 3600, 1e-12);
}

// A CPU-only Job on a cluster (accelerator null, machineType n2-standard-8) is priced by its
// machine type; an unknown machine type is n/a with a note naming it.
TEST(ReportPrice, CpuOnlyJobsOnAClusterArePricedByMachineType) {
  gkebuild::testing::TempDir project;
  const Report report = report_with(
      [](nlohmann::json& job) {
        if (job["name"] == "mnist-t4") {
          job["accelerator"] = nullptr;
          job["gpus"] = 0;
          job["machine_type"] = "n2-standard-8";
        }
        if (job["name"] == "gemm-l4") job["machine_type"] = "g9-standard-8";
      },
      project);
  const ThroughputRow* cpu = nullptr;
  for (const auto& row : report.throughput)
    if (row.key.workload == "mnist-train") cpu = &row;
  ASSERT_NE(cpu, nullptr);
  EXPECT_FALSE(cpu->label);
  ASSERT_TRUE(cpu->cost_on_demand && cpu->cost_spot && cpu->cost_as_run);
  EXPECT_NEAR(*cpu->cost_on_demand, 0.4 * 40 / 3600, 1e-12);  // 40 s of n2-standard-8
  EXPECT_NEAR(*cpu->cost_spot, 0.1 * 40 / 3600, 1e-12);
  ASSERT_FALSE(cpu->unit_costs.empty());
  EXPECT_TRUE(cpu->unit_costs[0].on_demand);
  const ThroughputRow& l4 = row_named(report, "nvidia-l4");
  EXPECT_FALSE(l4.cost_on_demand);
  bool noted = false;
  for (const auto& note : report.notes)
    noted = noted || note == "nvidia-l4 ran on g9-standard-8: no catalog price for machine type g9-standard-8; its "
                                "cost is n/a.";
  EXPECT_TRUE(noted);
}

// The gemm fixture run recorded in `region` (run.json "region"), priced with the built-in catalog.
Report report_in(const std::string& region, gkebuild::testing::TempDir& project) {
  const std::string run = "gemm-20261122-031500";
  const fs::path runs = project.path() / ".gkebuild/runs";
  fs::create_directories(runs);
  fs::copy(kProject + "/.gkebuild/runs/" + run, runs / run, fs::copy_options::recursive);
  auto record = nlohmann::json::parse(read_file(runs / run / "run.json"));
  if (!region.empty()) record["region"] = region;
  write_file_atomically(runs / run / "run.json", record.dump(2));
  return build_report({load_run_argument(run, project.path())}, catalog::Catalog::builtin(), "");
}

// Prices by region (issue 43): a run recorded in europe-west4 costs europe-west4's prices (the
// L4's g2-standard-8 node 0.30857 + 0.58804 an hour, against 0.29358 + 0.56004 in us-central1);
// in a region the catalog lacks, the cost is n/a with a note naming where it is priced, never
// us-central1's figure; a run without a region is priced in us-central1 and the report says so.
TEST(ReportPrice, CostsAreInTheRunsRegion) {
  gkebuild::testing::TempDir europe_dir, central_dir, south_dir, none_dir;
  const Report europe = report_in("europe-west4", europe_dir);
  const Report central = report_in("us-central1", central_dir);
  EXPECT_EQ(europe.price_region, "europe-west4");
  const ThroughputRow& l4_europe = row_named(europe, "nvidia-l4");
  const ThroughputRow& l4_central = row_named(central, "nvidia-l4");
  ASSERT_TRUE(l4_europe.cost_on_demand && l4_central.cost_on_demand);
  EXPECT_NEAR(*l4_europe.cost_on_demand, l4_europe.node_hours * (0.30857 + 0.58804), 1e-12);
  EXPECT_NEAR(*l4_central.cost_on_demand, l4_central.node_hours * (0.29358 + 0.56004), 1e-12);
  const std::string md = write_markdown(europe);
  EXPECT_NE(md.find("## Prices in europe-west4"), std::string::npos) << md;
  EXPECT_NE(md.find("Cost counts list prices in europe-west4 (catalog of "), std::string::npos) << md;
  EXPECT_NE(md.find("not disks, network, committed-use or sustained-use discounts"), std::string::npos) << md;

  const Report south = report_in("us-south1", south_dir);
  EXPECT_FALSE(row_named(south, "nvidia-l4").cost_on_demand);
  bool noted = false;
  for (const auto& note : south.notes)
    noted = noted || note == "nvidia-l4: no catalog price for nvidia-l4 in us-south1 (priced in us-central1, "
                             "us-east1, us-east4, us-west1, us-west4, europe-west4, asia-southeast1); its cost is n/a.";
  EXPECT_TRUE(noted) << write_markdown(south);

  const Report none = report_in("", none_dir);
  EXPECT_EQ(none.price_region, "us-central1");
  noted = false;
  for (const auto& note : none.notes) noted = noted || note.starts_with("No run recorded a region");
  EXPECT_TRUE(noted);
}

}  // namespace
}  // namespace gkebuild::report
