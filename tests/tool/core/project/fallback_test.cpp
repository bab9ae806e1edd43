// An experiment's `fallback:` list (issue 41, part 2): alternatives read in order with their
// accelerator, provisioning or reservation; every mistake at its file:line:col; no pool derived
// for such an experiment (its ComputeClass has GKE create them). With cluster.failover: follow an
// alternative may change gpus and nodes, and every alternative gets a derived pool.
#include <gtest/gtest.h>

#include "parse_error.h"
#include "tool/core/project/project.h"

namespace gkebuild::project {
namespace {

using experiments_file::expect_error;
using experiments_file::kHead;
using experiments_file::parse;

// Line 7 opens the experiment, line 9 its fallback list; the items start on line 10.
std::string with_fallback(const std::string& items, const std::string& own = "provisioning: spot") {
  return "  ddp:\n    {image: gemm, accelerators: [nvidia-h100-80gb], gpus: 8, " + own + ",\n     fallback: [\n" + items +
         "]}\n";
}

TEST(Fallback, AlternativesInOrder) {
  const Project project = parse(with_fallback("  {accelerator: nvidia-h100-80gb, provisioning: flex-start},\n"
                                              "  {accelerator: nvidia-h100-80gb, reservation: projects/owner-proj/reservations/h100},\n"
                                              "  {accelerator: nvidia-a100-80gb, gpus: 8}\n") +
                                "cluster: {gcpProject: my-project, location: us-central1}\n");
  const Experiment& ddp = project.experiments.front();
  ASSERT_EQ(ddp.fallback.size(), 3u);
  EXPECT_EQ(ddp.fallback[0].accelerator, "nvidia-h100-80gb");
  EXPECT_EQ(ddp.fallback[0].provisioning, Provisioning::FlexStart);
  EXPECT_EQ(ddp.fallback[0].gpus, 8);  // the experiment's own
  EXPECT_EQ(ddp.fallback[0].nodes, 1);
  EXPECT_EQ(ddp.fallback[1].reservation, "projects/owner-proj/reservations/h100");
  EXPECT_EQ(ddp.fallback[1].provisioning, Provisioning::OnDemand);
  EXPECT_EQ(ddp.fallback[2].accelerator, "nvidia-a100-80gb");
  EXPECT_EQ(ddp.fallback[2].provisioning, Provisioning::OnDemand);
  EXPECT_EQ(ddp.fallback[2].where.line, 12);
  EXPECT_EQ(ddp.fallback_where.line, 9);
  // GKE creates this experiment's pools (node pool auto-creation of its ComputeClass).
  EXPECT_TRUE(project.cluster.gke->pools.empty());
  EXPECT_EQ(ddp.pending_timeout_seconds, 900);  // pendingTimeout's default, 15m
}

TEST(Fallback, PendingTimeout) {
  const Project project = parse("  ddp: {image: gemm, accelerators: [nvidia-l4], pendingTimeout: 30m,\n"
                                "        fallback: [{accelerator: nvidia-tesla-t4}]}\n"
                                "  now: {image: gemm, accelerators: [nvidia-l4], pendingTimeout: 90,\n"
                                "        fallback: [{accelerator: nvidia-tesla-t4}]}\n");
  EXPECT_EQ(project.experiments[0].pending_timeout_seconds, 1800);
  EXPECT_EQ(project.experiments[1].pending_timeout_seconds, 90);
  expect_error("  e: {image: gemm, accelerators: [nvidia-l4], pendingTimeout: 10m}\n", 7, 63, "give a fallback: list");
  expect_error("  e: {image: gemm, accelerators: [nvidia-l4], pendingTimeout: soon,\n"
               "      fallback: [{accelerator: nvidia-tesla-t4}]}\n", 7, 63, "a duration such as 90m");
}

TEST(Fallback, MistakesAtTheirPositions) {
  expect_error(with_fallback("  {accelerator: nvidia-a100-80g}\n"), 10, 17, "did you mean 'nvidia-a100-80gb'");
  expect_error(with_fallback("  {accelerator: nvidia-l4, provisioning: flexstart}\n"), 10, 42, "did you mean 'flex-start'");
  expect_error(with_fallback("  {accelerator: nvidia-l4, provisoning: spot}\n"), 10, 28, "did you mean 'provisioning'");
  expect_error(with_fallback("  {provisioning: spot}\n"), 10, 3, "accelerator");
  expect_error(with_fallback("  nvidia-l4\n"), 10, 3, "expected a mapping");
  expect_error(with_fallback(""), 9, 16, "got an empty list");
  expect_error(with_fallback("  {accelerator: nvidia-h100-80gb, provisioning: queued}\n"), 10, 49, "ProvisioningRequest");
  expect_error(with_fallback("  {accelerator: nvidia-h100-80gb, provisioning: spot, reservation: r1}\n"), 10, 68,
               "reservation is consumed by on-demand nodes");
  expect_error(with_fallback("  {accelerator: nvidia-h100-80gb, reservation: Not_A_Name}\n"), 10, 48, "neither a reservation");
  // The experiment's own choice is tried first; an alternative repeats neither it nor another.
  expect_error(with_fallback("  {accelerator: nvidia-h100-80gb, provisioning: spot}\n"), 10, 3, "the experiment's own choice");
  expect_error(with_fallback("  {accelerator: nvidia-l4},\n  {accelerator: nvidia-l4, provisioning: on-demand}\n"), 11, 3,
               "listed twice");
  // A ComputeClass picks nodes, not the pods: other gpus or nodes would need a new Job.
  expect_error(with_fallback("  {accelerator: nvidia-a100-80gb, gpus: 4}\n"), 10, 41, "differs from the experiment's 8");
  expect_error(with_fallback("  {accelerator: nvidia-a100-80gb, nodes: 2}\n"), 10, 42, "follower-driven fallback");
  expect_error(with_fallback("  {accelerator: nvidia-tesla-t4}\n"), 10, 17, "nvidia-tesla-t4 machines have at most 4");
}

TEST(Fallback, WhatTheExperimentMustAllow) {
  expect_error("  cmp: {image: gemm, accelerators: [nvidia-l4, nvidia-tesla-t4], fallback: [{accelerator: nvidia-a100-80gb}]}\n",
               7, 76, "compares 2 accelerators");
  expect_error("  q: {image: gemm, accelerators: [nvidia-l4], queue: gpu, fallback: [{accelerator: nvidia-tesla-t4}]}\n", 7, 69,
               "Kueue admits a Job to one ResourceFlavor");
  expect_error("  q: {image: gemm, accelerators: [nvidia-h100-80gb], gpus: 8, nodes: 2, provisioning: queued, queue: q,\n"
               "      fallback: [{accelerator: nvidia-h100-80gb, provisioning: spot}]}\n",
               7, 87, "ProvisioningRequest");
  expect_error("  m: {image: gemm, accelerators: [nvidia-h100-80gb], gpus: 8, nodes: 2,\n"
               "      fallback: [{accelerator: nvidia-h100-80gb, provisioning: flex-start}]}\n",
               8, 64, "one at a time");
  expect_error("  c: {image: gemm, accelerators: [nvidia-h100-80gb], gpus: 8, nodes: 2, compact: true,\n"
               "      fallback: [{accelerator: nvidia-a100-80gb}]}\n",
               7, 82, "pools GKE creates for its ComputeClass");
}

const std::string kFollow = "cluster: {failover: follow, gcpProject: my-project, location: us-central1}\n";

const GpuPool* pool_of(const Project& project, const std::string& accelerator, Provisioning provisioning) {
  for (const auto& pool : project.cluster.gke->pools)
    if (pool.accelerator == accelerator && pool.provisioning == provisioning) return &pool;
  return nullptr;
}

TEST(Failover, TheClusterKey) {
  EXPECT_EQ(parse(with_fallback("  {accelerator: nvidia-l4}\n")).cluster.failover, Failover::ComputeClass);
  EXPECT_EQ(parse(with_fallback("  {accelerator: nvidia-l4}\n") + kFollow).cluster.failover, Failover::Follow);
  EXPECT_EQ(parse(with_fallback("  {accelerator: nvidia-l4}\n") + "cluster: {failover: computeClass}\n").cluster.failover,
            Failover::ComputeClass);
  // Line 12 follows the experiment's five lines.
  expect_error(with_fallback("  {accelerator: nvidia-l4}\n") + "cluster: {failover: folow}\n", 12, 21,
               "cluster.failover: expected computeClass (GKE falls back itself) or follow");
  expect_error(with_fallback("  {accelerator: nvidia-l4}\n") + "cluster: {failover: folow}\n", 12, 21,
               "did you mean 'follow'");
  expect_error(with_fallback("  {accelerator: nvidia-l4}\n") + "cluster: {failover: [follow]}\n", 12, 21, "failover");
}

// The follower recreates a point's Job for the alternative, so its pods may ask for other GPUs
// and nodes; the pool of each alternative is derived like an experiment's own.
TEST(Failover, FollowLetsAnAlternativeChangeGpusAndNodes) {
  const Project project = parse(with_fallback("  {accelerator: nvidia-a100-80gb, gpus: 4, nodes: 2},\n"
                                              "  {accelerator: nvidia-tesla-t4, gpus: 4, provisioning: spot},\n"
                                              "  {accelerator: nvidia-h100-80gb, gpus: 8, nodes: 2, provisioning: spot}\n") +
                                "  plain: {image: gemm, accelerators: [nvidia-tesla-t4], gpus: 2, spot: true}\n" + kFollow);
  const Experiment& ddp = project.experiments.front();
  ASSERT_EQ(ddp.fallback.size(), 3u);
  EXPECT_EQ(ddp.fallback[0].gpus, 4);
  EXPECT_EQ(ddp.fallback[0].nodes, 2);
  // The same accelerator and provisioning as the experiment's own, on two nodes: another shape.
  EXPECT_EQ(ddp.fallback[2].nodes, 2);
  // Pools for the experiment's own choice and each alternative, shared with plain's T4 spot pool.
  ASSERT_EQ(project.cluster.gke->pools.size(), 3u);
  const GpuPool* h100 = pool_of(project, "nvidia-h100-80gb", Provisioning::Spot);
  ASSERT_NE(h100, nullptr);
  EXPECT_EQ(h100->gpus_per_node, 8);
  EXPECT_TRUE(h100->gvnic);  // the two-node alternative
  const GpuPool* a100 = pool_of(project, "nvidia-a100-80gb", Provisioning::OnDemand);
  ASSERT_NE(a100, nullptr);
  EXPECT_EQ(a100->gpus_per_node, 4);
  EXPECT_TRUE(a100->gvnic);
  EXPECT_TRUE(a100->derived);
  const GpuPool* t4 = pool_of(project, "nvidia-tesla-t4", Provisioning::Spot);
  ASSERT_NE(t4, nullptr);
  EXPECT_EQ(t4->gpus_per_node, 4);  // the alternative's 4, more than plain's 2
  EXPECT_FALSE(t4->gvnic);
}

TEST(Failover, FollowKeepsAReservationsZoneAndCompactPlacement) {
  const Project project =
      parse("  c: {image: gemm, accelerators: [nvidia-h100-80gb], gpus: 8, nodes: 2, compact: true,\n"
            "      fallback: [{accelerator: nvidia-h100-80gb, reservation: {name: r1, zone: us-central1-b}},\n"
            "                 {accelerator: nvidia-a100-80gb, gpus: 8, nodes: 1}]}\n" + kFollow);
  const Experiment& c = project.experiments.front();
  EXPECT_EQ(c.fallback[0].reservation_zone, "us-central1-b");
  EXPECT_EQ(c.fallback[0].reservation_where.line, 8);
  ASSERT_EQ(project.cluster.gke->pools.size(), 3u);
  const GpuPool& own = project.cluster.gke->pools[0];
  EXPECT_EQ(own.accelerator, "nvidia-h100-80gb");
  EXPECT_TRUE(own.reservation.empty());
  EXPECT_TRUE(own.compact);
  const GpuPool* reserved = &project.cluster.gke->pools[1];
  EXPECT_EQ(reserved->reservation, "r1");
  EXPECT_EQ(reserved->zones, std::vector<std::string>{"us-central1-b"});
  EXPECT_TRUE(reserved->compact);  // a multi-node choice of a compact experiment
  const GpuPool* a100 = pool_of(project, "nvidia-a100-80gb", Provisioning::OnDemand);
  ASSERT_NE(a100, nullptr);
  EXPECT_FALSE(a100->compact);  // one node: nothing to keep close
}

TEST(Failover, FollowRefusesWhatTheFollowerCannotDo) {
  // A Job Kueue holds suspended waits for quota, which pendingTimeout cannot tell from nodes.
  expect_error("  q: {image: gemm, accelerators: [nvidia-l4], queue: gpu, fallback: [{accelerator: nvidia-tesla-t4}]}\n" +
                   kFollow,
               7, 69, "waits suspended for quota");
  expect_error(with_fallback("  {accelerator: nvidia-h100-80gb, provisioning: queued}\n") + kFollow, 10, 49,
               "the follower cannot tell");
  expect_error(with_fallback("  {accelerator: nvidia-h100-80gb, nodes: 2, provisioning: flex-start}\n") + kFollow, 10, 59,
               "one at a time");
  expect_error("  cmp: {image: gemm, accelerators: [nvidia-l4, nvidia-tesla-t4], fallback: [{accelerator: nvidia-a100-80gb}]}\n" +
                   kFollow,
               7, 76, "compares 2 accelerators");
  expect_error(with_fallback("  {accelerator: nvidia-h100-80gb, gpus: 8, provisioning: spot}\n") + kFollow, 10, 3,
               "the experiment's own choice");
  // A multi-node alternative's completion index is its node rank.
  expect_error("  s: {image: gemm, accelerators: [nvidia-l4], seeds: 3,\n"
               "      fallback: [{accelerator: nvidia-a100-80gb, nodes: 2}]}\n" + kFollow,
               8, 57, "node rank, and the experiment's seeds");
  expect_error("  s: {image: gemm, accelerators: [nvidia-l4], env: {NNODES: '2'},\n"
               "      fallback: [{accelerator: nvidia-a100-80gb, nodes: 2}]}\n" + kFollow,
               8, 57, "sets NNODES");
}

}  // namespace
}  // namespace gkebuild::project
