// CPU-only experiments (issue 42): no accelerators: (or gpus: 0) is an experiment on plain VMs
// of machineType:; GPU keys on it, and gpus: 0 beside accelerators:, are mistakes at their place.
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
    "  prep: {workload: gemm-bench}\n" // 5
    "experiments:\n";                  // 6

Project parse(const std::string& rest) { return parse_project(kHead + rest, "gkebuild.yaml"); }

void expect_error(const std::string& rest, int line, int column, const std::string& words) {
  expect_parse_error(kHead + rest, line, column, words);
}

TEST(CpuOnly, NoAcceleratorsIsCpuOnly) {
  const Project project = parse(
      "  a: {image: prep}\n"
      "  b: {image: prep, gpus: 0, machineType: n2-standard-8, cpu: 6, memory: 24Gi, spot: true}\n"
      "  c: {image: prep, accelerators: [nvidia-l4]}\n");
  const auto& a = project.experiments[0];
  EXPECT_TRUE(a.cpu_only());
  EXPECT_EQ(a.gpus, 0);
  EXPECT_TRUE(a.accelerators.empty());
  EXPECT_EQ(a.machine_type, "e2-standard-4");  // the default
  const auto& b = project.experiments[1];
  EXPECT_TRUE(b.cpu_only());
  EXPECT_EQ(b.machine_type, "n2-standard-8");
  EXPECT_EQ(b.cpu, "6");
  EXPECT_TRUE(b.spot);
  const auto& c = project.experiments[2];
  EXPECT_FALSE(c.cpu_only());
  EXPECT_EQ(c.gpus, 1);
  EXPECT_EQ(c.machine_type, "");
}

TEST(CpuOnly, MistakesAtTheirPlace) {
  expect_error("  a: {image: prep, gpus: 2}\n", 7, 26, "need accelerators:");
  expect_error("  a: {image: prep, accelerators: [nvidia-l4], gpus: 0}\n", 7, 53, "gpus: 0 is a CPU-only experiment");
  expect_error("  a: {image: prep, accelerators: [nvidia-l4], machineType: e2-standard-4}\n", 7, 60,
               "machineType is for gpus: 0");
  expect_error("  a: {image: prep, machineType: a3-highgpu-8g}\n", 7, 33, "GPU machine type");
  expect_error("  a: {image: prep, machineType: 'E2 standard'}\n", 7, 33, "not a Compute Engine machine type");
  expect_error("  a: {image: prep, provisioning: flex-start}\n", 7, 34, "CPU-only experiment");
  expect_error("  a: {image: prep, reservation: r1}\n", 7, 33, "not offered for it yet");
  expect_error("  a: {image: prep, nodes: 2}\n", 7, 27, "multi-node");
  expect_error("  a: {image: prep, queue: cpu}\n", 7, 27, "not offered for it yet");
  expect_error("  a: {image: prep, gpus: -1}\n", 7, 26, "gpus");
}

}  // namespace
}  // namespace gkebuild::project
