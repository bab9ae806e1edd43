// Which architectures an image's workload is built for, which accelerators its device code
// is checked against, and what a refusal says; `source:` in gkebuild.yaml.
#include <gtest/gtest.h>

#include "tool/core/project/project.h"
#include "tool/steps/workload_images/cuda_architectures.h"
#include "tool/steps/workload_images/device_check.h"

namespace gkebuild::workload_images {
namespace {

project::Project with_experiments(const std::string& experiments) {
  return project::parse_project("apiVersion: gkebuild/v1\nproject: p\nregistry: r.test/x\n"
                                "images:\n  app: {workload: app}\n  other: {workload: other}\n"
                                "experiments:\n" + experiments,
                                "gkebuild.yaml");
}

std::string architectures(const std::string& experiments) {
  const auto project = with_experiments(experiments);
  return cmake_cuda_architectures(image_targets(project, *project.find_image("app")));
}

TEST(CudaArchitectures, OneCubinPerComputeCapabilityAndPtxForTheNewest) {
  EXPECT_EQ(architectures("  e: {image: app, accelerators: [nvidia-tesla-t4, nvidia-l4]}\n"), "75-real;89");
  EXPECT_EQ(architectures("  e: {image: app, accelerators: [nvidia-l4, nvidia-tesla-t4, nvidia-a100-80gb]}\n"),
            "75-real;80-real;89");
  EXPECT_EQ(architectures("  e: {image: app, accelerators: [nvidia-l4]}\n"), "89");
}

TEST(CudaArchitectures, UnionOfTheExperimentsThatUseTheImage) {
  EXPECT_EQ(architectures("  a: {image: app, accelerators: [nvidia-l4, nvidia-a100-80gb]}\n"
                          "  b: {image: app, accelerators: [nvidia-tesla-a100, nvidia-h100-80gb]}\n"
                          "  c: {image: other, accelerators: [nvidia-tesla-t4]}\n"),
            "80-real;89-real;90");
  EXPECT_EQ(architectures("  c: {image: other, accelerators: [nvidia-tesla-t4]}\n"), "");
}

TEST(CudaArchitectures, ASubmitChecksItsOwnAccelerators) {
  const auto project = with_experiments("  e: {image: app, accelerators: [nvidia-tesla-t4, nvidia-l4]}\n");
  EXPECT_EQ(run_targets(project, {"e", {}}).size(), 2u);
  const auto replaced = run_targets(project, {"e", {"nvidia-a100-80gb"}});
  ASSERT_EQ(replaced.size(), 1u);
  EXPECT_EQ(replaced[0].accelerator->label, "nvidia-a100-80gb");
}

TEST(DeviceCheck, NamesTheExperimentTheAcceleratorAndWhatIsMissing) {
  const auto project = with_experiments("  train: {image: app, accelerators: [nvidia-tesla-t4, nvidia-l4]}\n");
  cuda::DeviceCode sm89;
  sm89.cubins = {89};
  sm89.ptx = {89};
  const auto findings =
      device_code_findings("app", image_targets(project, *project.find_image("app")), {{"bin/app", sm89}});
  ASSERT_EQ(findings.size(), 1u);  // the L4 runs it
  EXPECT_EQ(findings[0].message,
            "experiment 'train' runs on nvidia-tesla-t4 (compute capability 7.5), but bin/app of image 'app' carries "
            "sm_89 and compute_89 PTX: it needs an sm_75 cubin (or PTX at or below compute_75)");
  EXPECT_EQ(findings[0].where.line, 8);  // the experiment
}

TEST(ProjectSource, NeedsAWorkloadAndStaysInTheProject) {
  const std::string head = "apiVersion: gkebuild/v1\nproject: p\nregistry: r.test/x\nimages:\n";
  EXPECT_EQ(project::parse_project(head + "  app: {workload: app, source: native}\n", "gkebuild.yaml").images[0].source,
            "native");
  try {
    project::parse_project(head + "  app: {entrypoint: [/x], source: native}\n", "gkebuild.yaml");
    ADD_FAILURE();
  } catch (const SourceError& e) {
    EXPECT_NE(e.message().find("add workload: TARGET"), std::string::npos) << e.message();
  }
  try {
    project::parse_project(head + "  app: {workload: app, source: ../elsewhere}\n", "gkebuild.yaml");
    ADD_FAILURE();
  } catch (const SourceError& e) {
    EXPECT_NE(e.message().find("leads outside the project folder"), std::string::npos) << e.message();
  }
}

}  // namespace
}  // namespace gkebuild::workload_images
