// The GKE part of `cluster:`: pools derived from the experiments' accelerators (machine
// type and GPUs per node from the catalog), pools written out, Autopilot, and each
// mistake at its line and column.
#include <gtest/gtest.h>

#include "parse_error.h"
#include "tool/core/project/project.h"

namespace gkebuild::project {
namespace {

const std::string kHead =
    "apiVersion: gkebuild/v1\n"        // 1
    "project: demo\n"                  // 2
    "registry: 127.0.0.1:5000/exp\n"   // 3
    "images:\n"                        // 4
    "  gemm: {workload: gemm-bench}\n" // 5
    "experiments:\n"                   // 6
    "  a: {image: gemm, accelerators: [nvidia-l4, nvidia-tesla-t4], spot: true}\n"  // 7
    "  b: {image: gemm, accelerators: [nvidia-a100-80gb], gpus: 2}\n"              // 8
    "  c: {image: gemm, accelerators: [nvidia-l4]}\n"                              // 9
    "cluster:\n";                                                                   // 10

Project parse(const std::string& cluster) { return parse_project(kHead + cluster, "gkebuild.yaml"); }

void expect_error(const std::string& cluster, int line, int column, const std::string& words) {
  expect_parse_error(kHead + cluster, line, column, words);
}

TEST(ClusterSection, PoolsAreDerivedFromTheExperiments) {
  const Project project = parse("  gcpProject: my-project\n  location: us-central1\n  nodeLocations: [us-central1-a]\n");
  ASSERT_TRUE(project.cluster.gke);
  const GkeCluster& gke = *project.cluster.gke;
  EXPECT_EQ(gke.name, "demo");
  EXPECT_TRUE(gke.regional());
  EXPECT_EQ(project.cluster.context, "gke_my-project_us-central1_demo");
  EXPECT_EQ(gke.admin_machine_type, "e2-standard-4");
  EXPECT_EQ(gke.admin_nodes, 1);
  ASSERT_EQ(gke.pools.size(), 4u);  // l4 spot, t4 spot, a100-80gb, l4 on demand
  EXPECT_EQ(gke.pools[0].name, "l4-spot");
  EXPECT_EQ(gke.pools[0].machine_type, "g2-standard-4");
  EXPECT_TRUE(gke.pools[0].spot);
  ASSERT_EQ(gke.pools[0].taints.size(), 2u);
  EXPECT_EQ(gke.pools[0].taints[1].key, "cloud.google.com/gke-spot");
  EXPECT_EQ(gke.pools[1].name, "t4-spot");
  EXPECT_EQ(gke.pools[1].machine_type, "n1-standard-4");
  EXPECT_EQ(gke.pools[2].name, "a100-80gb");
  EXPECT_EQ(gke.pools[2].machine_type, "a2-ultragpu-2g");
  EXPECT_EQ(gke.pools[2].gpus_per_node, 2);
  EXPECT_EQ(gke.pools[3].name, "l4");
  EXPECT_FALSE(gke.pools[3].spot);
  ASSERT_EQ(gke.pools[3].taints.size(), 1u);
  EXPECT_EQ(gke.pools[3].taints[0].key, "nvidia.com/gpu");
  for (const auto& pool : gke.pools) {
    EXPECT_EQ(pool.min_nodes, 0);
    EXPECT_EQ(pool.max_nodes, 4);
    EXPECT_EQ(pool.driver, GpuDriver::Default);
    EXPECT_TRUE(pool.derived);
  }
}

TEST(ClusterSection, PoolsWrittenOut) {
  const Project project = parse(
      "  name: gpu\n  context: mine\n  gcpProject: my-project\n  location: us-central1-a\n"
      "  adminPool: {machineType: e2-standard-2, nodes: 2}\n"
      "  gpuPools:\n    maxNodes: 8\n    gpuDriver: latest\n    pools:\n"
      "      l4-shared: {accelerator: nvidia-l4, sharing: time-sharing, clientsPerGpu: 4, spot: true}\n"
      "      a100-mig: {accelerator: nvidia-tesla-a100, migPartition: 1g.5gb, machineType: a2-highgpu-2g, minNodes: 1}\n"
      "      h100: {accelerator: nvidia-h100-80gb, gpusPerNode: 8, taints: [], gpuDriver: default}\n");
  const GkeCluster& gke = *project.cluster.gke;
  EXPECT_FALSE(gke.regional());
  EXPECT_EQ(project.cluster.context, "mine");
  EXPECT_EQ(gke.admin_nodes, 2);
  ASSERT_EQ(gke.pools.size(), 3u);
  EXPECT_EQ(gke.pools[0].sharing, "time-sharing");
  EXPECT_EQ(gke.pools[0].clients_per_gpu, 4);
  EXPECT_EQ(gke.pools[0].max_nodes, 8);
  EXPECT_EQ(gke.pools[0].driver, GpuDriver::Latest);
  EXPECT_EQ(gke.pools[1].partition, "1g.5gb");
  EXPECT_EQ(gke.pools[1].gpus_per_node, 2);
  EXPECT_EQ(gke.pools[1].min_nodes, 1);
  EXPECT_EQ(gke.pools[2].machine_type, "a3-highgpu-8g");
  EXPECT_TRUE(gke.pools[2].taints.empty());
  EXPECT_EQ(gke.pools[2].driver, GpuDriver::Default);
  EXPECT_FALSE(gke.pools[2].derived);
}

TEST(ClusterSection, AnEmptyContextKeepsTheCurrentContext) {
  const Project project = parse("  context: \"\"\n  gcpProject: my-project\n  location: us-central1\n");
  EXPECT_EQ(project.cluster.context, "");
}

TEST(ClusterSection, AutopilotHasNoPools) {
  const Project project =
      parse("  gcpProject: my-project\n  location: us-central1\n  autopilot: true\n  computeClass: Accelerator\n");
  EXPECT_TRUE(project.cluster.gke->autopilot);
  EXPECT_EQ(project.cluster.gke->compute_class, "Accelerator");
  EXPECT_TRUE(project.cluster.gke->pools.empty());
  expect_error("  gcpProject: my-project\n  location: us-central1\n  autopilot: true\n  gpuPools: {maxNodes: 2}\n",
               14, 13, "Autopilot cluster has no node pools");
}

TEST(ClusterSection, WithoutGkeKeysNothingChanges) {
  const Project project = parse("  namespace: team\n");
  EXPECT_FALSE(project.cluster.gke);
  EXPECT_EQ(project.cluster.context, "");
}

TEST(ClusterSection, MistakesAtTheirPositions) {
  expect_error("  location: us-central1\n", 11, 3, "gcpProject");
  expect_error("  gcpProject: my-project\n  location: us-central\n", 12, 13, "neither a region");
  expect_error("  gcpProject: my-project\n  location: us-central1\n  nodeLocations: [europe-west4-a]\n", 13, 19,
               "not a zone of us-central1");
  expect_error("  gcpProject: My_Project\n  location: us-central1\n", 11, 15, "not a GCP project id");
  expect_error("  gcpProject: my-project\n  location: us-central1\n  gpuPool: {}\n", 13, 3, "did you mean 'gpuPools'");
  const std::string pools = "  gcpProject: my-project\n  location: us-central1\n  gpuPools:\n    pools:\n      p: ";
  expect_error(pools + "{accelerator: nvidia-l4, migPartition: 1g.5gb}\n", 15, 49, "cannot be partitioned");
  expect_error(pools + "{accelerator: nvidia-tesla-a100, migPartition: 1g.10gb}\n", 15, 57,
               "not a nvidia-tesla-a100 MIG profile");
  expect_error(pools + "{accelerator: nvidia-l4, machineType: n1-standard-4}\n", 15, 48,
               "'n1-standard-4' carries no nvidia-l4");
  expect_error(pools + "{accelerator: nvidia-l4, gpusPerNode: 3}\n", 15, 48, "no nvidia-l4 machine type has 3 GPUs");
  expect_error(pools + "{accelerator: nvidia-l4, minNodes: 3, maxNodes: 2}\n", 15, 45, "minNodes 3 is above maxNodes 2");
  expect_error(pools + "{accelerator: nvidia-l4, taints: [nvidia.com/gpu=present]}\n", 15, 44, "KEY=VALUE:EFFECT");
  expect_error(pools + "{accelerator: nvidia-l4, sharing: timesharing}\n", 15, 44, "did you mean 'time-sharing'");
  expect_error(pools + "{accelerator: nvidia-l44}\n", 15, 24, "did you mean 'nvidia-l4'");
  expect_error(pools + "{accelerator: nvidia-l4, gpuDriver: installer}\n", 15, 46, "set cluster.driverInstaller to cos");
}

}  // namespace
}  // namespace gkebuild::project
