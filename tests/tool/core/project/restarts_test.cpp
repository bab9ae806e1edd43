// `restarts:` of an experiment (issue 41, part 1): gang restarts of a multi-node Job, 3 by default
// for nodes > 1, none for a single node (whose pod is recreated after a disruption already).
#include <gtest/gtest.h>

#include "parse_error.h"
#include "tool/core/project/project.h"

namespace gkebuild::project {
namespace {

using experiments_file::kHead;

TEST(Restarts, DefaultsAndGivenValues) {
  const Project project = parse_project(kHead +
                                            "  one: {image: gemm, accelerators: [nvidia-l4]}\n"
                                            "  ddp: {image: gemm, accelerators: [nvidia-h100-80gb], gpus: 8, nodes: 2}\n"
                                            "  ten: {image: gemm, accelerators: [nvidia-h100-80gb], gpus: 8, nodes: 4, restarts: 10}\n"
                                            "  none: {image: gemm, accelerators: [nvidia-h100-80gb], gpus: 8, nodes: 2, restarts: 0}\n",
                                        "gkebuild.yaml");
  EXPECT_EQ(project.experiments[0].restarts, 0);
  EXPECT_EQ(project.experiments[1].restarts, 3);
  EXPECT_EQ(project.experiments[2].restarts, 10);
  EXPECT_EQ(project.experiments[3].restarts, 0);
}

TEST(Restarts, MistakesAtTheirPositions) {
  expect_parse_error(kHead + "  one: {image: gemm, accelerators: [nvidia-l4], restarts: 2}\n", 7, 59,
                     "a single-node Job's pod is recreated after one already");
  expect_parse_error(kHead + "  ddp: {image: gemm, accelerators: [nvidia-l4], nodes: 2, restarts: -1}\n", 7, 69, "restarts");
  expect_parse_error(kHead + "  ddp: {image: gemm, accelerators: [nvidia-l4], nodes: 2, restarts: 101}\n", 7, 69, "at most 100");
  expect_parse_error(kHead + "  ddp: {image: gemm, accelerators: [nvidia-l4], nodes: 2, restart: 1}\n", 7, 59,
                     "did you mean 'restarts'");
}

TEST(Restarts, RetriableExitCodes) {
  const Project project = parse_project(
      kHead + "  ddp: {image: gemm, accelerators: [nvidia-l4], nodes: 2, retriableExitCodes: [42, 75]}\n", "gkebuild.yaml");
  EXPECT_EQ(project.experiments[0].retriable_exit_codes, (std::vector<int>{42, 75}));
  expect_parse_error(kHead + "  one: {image: gemm, accelerators: [nvidia-l4], retriableExitCodes: [42]}\n", 7, 69,
                     "single-node Job retries any failure");
  expect_parse_error(kHead + "  ddp: {image: gemm, accelerators: [nvidia-l4], nodes: 2, retriableExitCodes: [0]}\n", 7, 80,
                     "not an exit code from 1 to 255");
  expect_parse_error(kHead + "  ddp: {image: gemm, accelerators: [nvidia-l4], nodes: 2, retriableExitCodes: 42}\n", 7, 79,
                     "non-empty list of exit codes");
}

}  // namespace
}  // namespace gkebuild::project
