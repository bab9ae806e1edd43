// The project-file keys of scarce GPUs and big runs: provisioning (flex-start, queued),
// reservations, multi-node experiments (nodes, compact), storage.gcs and
// cluster.serviceAccount; the pools derived from them; every mistake at its position.
#include <gtest/gtest.h>

#include "parse_error.h"
#include "tool/core/project/project.h"

namespace gkebuild::project {
namespace {

using experiments_file::expect_error;
using experiments_file::kHead;
using experiments_file::parse;

const std::string kCluster = "cluster: {gcpProject: my-project, location: us-central1, serviceAccount: trainer}\n";

TEST(ScarceGpus, ExperimentKeysAndDerivedPools) {
  const Project project = parse(
      "  flex: {image: gemm, accelerators: [nvidia-l4], provisioning: flex-start}\n"
      "  queued: {image: gemm, accelerators: [nvidia-h100-80gb], gpus: 8, nodes: 6, provisioning: queued, queue: q}\n"
      "  res: {image: gemm, accelerators: [nvidia-h100-80gb], gpus: 8, nodes: 2, compact: true,\n"
      "        reservation: {name: r1, zone: us-central1-b}}\n"
      "  spot: {image: gemm, accelerators: [nvidia-l4], spot: true}\n"
      "  spot2: {image: gemm, accelerators: [nvidia-l4], provisioning: spot}\n" +
      kCluster);
  const auto& experiments = project.experiments;
  EXPECT_EQ(experiments[0].provisioning, Provisioning::FlexStart);
  EXPECT_EQ(experiments[1].nodes, 6);
  EXPECT_EQ(experiments[2].reservation, "r1");
  EXPECT_TRUE(experiments[3].spot);
  EXPECT_EQ(experiments[3].provisioning, Provisioning::Spot);
  EXPECT_TRUE(experiments[4].spot);  // provisioning: spot is spot: true
  EXPECT_EQ(project.cluster.service_account, "trainer");
  const auto& pools = project.cluster.gke->pools;
  ASSERT_EQ(pools.size(), 4u);  // spot and spot2 share l4-spot
  EXPECT_EQ(pools[0].name, "l4-flex");
  EXPECT_EQ(pools[0].provisioning, Provisioning::FlexStart);
  EXPECT_EQ(pools[0].min_nodes, 0);
  EXPECT_FALSE(pools[0].gvnic);
  EXPECT_EQ(pools[0].taints.back().key, "cloud.google.com/gke-flex-start");
  EXPECT_EQ(pools[1].name, "h100-queued");
  EXPECT_EQ(pools[1].max_nodes, 6);  // room for the 6-node Job
  EXPECT_TRUE(pools[1].gvnic);
  EXPECT_FALSE(pools[1].compact);
  EXPECT_EQ(pools[2].name, "h100-res-r1");
  EXPECT_EQ(pools[2].reservation, "r1");
  EXPECT_TRUE(pools[2].compact);
  EXPECT_EQ(pools[2].zones, std::vector<std::string>{"us-central1-b"});  // the reservation's zone
  EXPECT_TRUE(pools[0].zones.empty());  // the cluster's zones
  EXPECT_EQ(pools[3].name, "l4-spot");
}

TEST(ScarceGpus, GcsStorageAndWorkloadIdentity) {
  const Project project = parse("  a: {image: gemm, accelerators: [nvidia-l4]}\n"
                                "storage:\n  gcs: {bucket: gs://my-data, mountPath: /data, readOnly: true, onlyDir: sets/a/}\n" +
                                kCluster);
  ASSERT_TRUE(project.gcs);
  EXPECT_EQ(project.gcs->bucket, "my-data");
  EXPECT_EQ(project.gcs->mount_path, "/data");
  EXPECT_TRUE(project.gcs->read_only);
  EXPECT_EQ(project.gcs->only_dir, "sets/a");
  EXPECT_FALSE(project.nfs);
  EXPECT_TRUE(project.cluster.gke->gcs_fuse);
  EXPECT_TRUE(project.cluster.gke->pools[0].gke_metadata);
  EXPECT_EQ(project.cluster.gke->workload_pool(), "my-project.svc.id.goog");
}

TEST(ScarceGpus, PoolsWrittenOut) {
  const Project project = parse("  a: {image: gemm, accelerators: [nvidia-l4]}\n"
                                "cluster:\n  gcpProject: my-project\n  location: us-central1\n  gpuPools:\n"
                                "    minNodes: 1\n    pools:\n"
                                "      f: {accelerator: nvidia-l4, provisioning: flex-start, maxRunDuration: 24h}\n"
                                "      r: {accelerator: nvidia-l4, reservation: {name: projects/owner-1/reservations/l4, zone: us-central1-b},\n"
                                "         gvnic: true}\n");
  const auto& pools = project.cluster.gke->pools;
  EXPECT_EQ(pools[0].min_nodes, 0);  // a flex-start pool starts at zero whatever gpuPools says
  EXPECT_EQ(pools[0].max_run_seconds, 86400);
  EXPECT_EQ(pools[1].reservation, "projects/owner-1/reservations/l4");
  EXPECT_EQ(pools[1].zones, std::vector<std::string>{"us-central1-b"});  // the reservation's zone only
  EXPECT_TRUE(pools[0].zones.empty());  // the cluster's zones
  EXPECT_TRUE(pools[1].gvnic);
  EXPECT_EQ(pools[1].min_nodes, 1);
}

TEST(ScarceGpus, MistakesAtTheirPositions) {
  expect_error("  a: {image: gemm, accelerators: [nvidia-l4], provisioning: flexstart}\n", 7, 61,
               "expected on-demand, spot, flex-start or queued, got 'flexstart' (did you mean 'flex-start'?)");
  expect_error("  a: {image: gemm, accelerators: [nvidia-l4], provisioning: queued}\n", 7, 61,
               "queued provisioning needs a Kueue queue: add queue:");
  expect_error("  a: {image: gemm, accelerators: [nvidia-l4], provisioning: flex-start, spot: true}\n", 7, 79,
               "spot: true is provisioning: spot");
  expect_error("  a: {image: gemm, accelerators: [nvidia-l4], spot: true, reservation: r}\n", 7, 72,
               "a reservation is consumed by on-demand nodes");
  expect_error("  a: {image: gemm, accelerators: [nvidia-l4], reservation: R_1}\n", 7, 60,
               "'R_1' is neither a reservation name nor projects/PROJECT/reservations/NAME");
  expect_error("  a: {image: gemm, accelerators: [nvidia-l4], nodes: 2, seeds: 3}\n", 7, 64,
               "a multi-node experiment (nodes > 1) runs one Job per sweep point");
  expect_error("  a: {image: gemm, accelerators: [nvidia-l4], compact: true}\n", 7, 56, "give nodes > 1");
  expect_error("  a: {image: gemm, accelerators: [nvidia-l4], nodes: 2, env: {NODE_RANK: '1'}}\n", 7, 63,
               "NODE_RANK is set by gkebuild in a multi-node Job");
  expect_error("  a: {image: gemm, accelerators: [nvidia-l4], env: {GKEBUILD_CHECKPOINT_DIR: /x}}\n", 7, 53,
               "GKEBUILD_CHECKPOINT_DIR is set by gkebuild");
  expect_error("  a: {image: gemm, accelerators: [nvidia-l4]}\nstorage:\n  gcs: {bucket: My_Bucket}\n", 9, 17,
               "storage.gcs.bucket: 'My_Bucket' is not a bucket name");
  expect_error("  a: {image: gemm, accelerators: [nvidia-l4]}\nstorage:\n  gcs: {bucket: b-1, onlyDir: a/../b}\n", 9, 31,
               "storage.gcs.onlyDir: 'a/../b' is not a folder");
  expect_error("  a: {image: gemm, accelerators: [nvidia-l4]}\nstorage:\n  gcs: {bucket: b-1, onlyDir: 'a,ro'}\n", 9, 31,
               "is not a folder");
  expect_error("  a: {image: gemm, accelerators: [nvidia-l4]}\ncluster: {serviceAccount: Trainer}\n", 8, 27,
               "cluster.serviceAccount: 'Trainer' is not a ServiceAccount name");
  expect_error("  a: {image: gemm, accelerators: [nvidia-l4]}\n"
               "cluster:\n  gcpProject: my-project\n  location: us-central1\n  gpuPools:\n    pools:\n"
               "      f: {accelerator: nvidia-l4, provisioning: queued, minNodes: 1}\n",
               13, 67, "starts at zero nodes");
  expect_error("  a: {image: gemm, accelerators: [nvidia-l4]}\n"
               "cluster:\n  gcpProject: my-project\n  location: us-central1\n  gpuPools:\n    pools:\n"
               "      f: {accelerator: nvidia-l4, maxRunDuration: 2h}\n",
               13, 51, "only flex-start pools take it");
}

// A compact placement policy and a specific reservation both need a single-zone pool, but the
// pools took the cluster's zones (all of a region's, or nodeLocations): GKE refuses a COMPACT pool
// across zones, and a reservation holds VMs in one zone only.
TEST(ScarceGpus, CompactAndReservationPoolsKeepToOneZone) {
  const std::string compact = "  c: {image: gemm, accelerators: [nvidia-h100-80gb], gpus: 8, nodes: 2, compact: true}\n";
  // Regional, no nodeLocations: the first us-central1 zone the catalog lists H100s in.
  const Project regional = parse(compact + kCluster);
  EXPECT_EQ(regional.cluster.gke->pools[0].zones, std::vector<std::string>{"us-central1-a"});
  // nodeLocations: the first of them that offers the GPU (us-central1-f lacks H100s).
  const Project listed = parse(compact + "cluster: {gcpProject: my-project, location: us-central1,\n"
                                         "          nodeLocations: [us-central1-f, us-central1-c]}\n");
  EXPECT_EQ(listed.cluster.gke->pools[0].zones, std::vector<std::string>{"us-central1-c"});
  // One zone already: nothing of the pool's own.
  const Project zonal = parse(compact + "cluster: {gcpProject: my-project, location: us-central1-b}\n");
  EXPECT_TRUE(zonal.cluster.gke->pools[0].zones.empty());
  // No zone of the cluster offers the GPU: refused at the compact key. (A single-zone cluster
  // that lacks it keeps its zone: zone_warnings says so for every pool there, compact or not.)
  expect_error(compact + "cluster: {gcpProject: my-project, location: us-east1, nodeLocations: [us-east1-b, us-east1-c]}\n",
               7, 82, "compact: compact placement needs a single-zone node pool, and the catalog knows no zone of "
               "us-east1-b, us-east1-c with nvidia-h100-80gb");
  // A reservation across zones, without its zone: refused at the reservation key.
  expect_error("  r: {image: gemm, accelerators: [nvidia-l4], reservation: r1}\n" + kCluster, 7, 60,
               "a reservation holds VMs in one zone, but node pool l4-res-r1 would span every zone of us-central1; "
               "give its zone: reservation: {name: r1, zone: ZONE}");
  expect_error("  r: {image: gemm, accelerators: [nvidia-l4], reservation: {name: r1, zone: europe-west4-a}}\n" + kCluster, 7,
               60, "reservation.zone: europe-west4-a is not a zone the cluster's nodes may use");
  // Experiments that share a reservation share its pool: the one that gives the zone places it,
  // and two zones for one reservation are refused at the second.
  const Project shared = parse("  r: {image: gemm, accelerators: [nvidia-l4], reservation: r1}\n"
                               "  s: {image: gemm, accelerators: [nvidia-l4], reservation: {name: r1, zone: us-central1-c}}\n" +
                               kCluster);
  EXPECT_EQ(shared.cluster.gke->pools[0].zones, std::vector<std::string>{"us-central1-c"});
  expect_error("  r: {image: gemm, accelerators: [nvidia-l4], reservation: {name: r1, zone: us-central1-a}}\n"
               "  s: {image: gemm, accelerators: [nvidia-l4], reservation: {name: r1, zone: us-central1-c}}\n" + kCluster,
               8, 60, "reservation.zone: us-central1-c, but another experiment gives r1 the zone us-central1-a");
  // A written-out pool the same way.
  const Project pools = parse("  a: {image: gemm, accelerators: [nvidia-l4]}\n"
                              "cluster:\n  gcpProject: my-project\n  location: us-central1\n  gpuPools:\n    pools:\n"
                              "      r: {accelerator: nvidia-l4, reservation: {name: r1, zone: us-central1-c}}\n");
  EXPECT_EQ(pools.cluster.gke->pools[0].zones, std::vector<std::string>{"us-central1-c"});
  EXPECT_EQ(pools.cluster.gke->pools[0].reservation, "r1");
}

// GKE provisions flex-start VMs one at a time; a multi-node Job belongs on queued provisioning.
TEST(ScarceGpus, MultiNodeFlexStartIsRefusedWithTheQueuedHint) {
  expect_error("  a: {image: gemm, accelerators: [nvidia-l4], nodes: 2, provisioning: flex-start}\n", 7, 71,
               "flex-start VMs come one at a time, so the 2 nodes of this multi-node Job would start apart and wait "
               "for each other on paid GPUs; use provisioning: queued");
  const Project single = parse("  a: {image: gemm, accelerators: [nvidia-l4], provisioning: flex-start, shmSize: 16Gi}\n");
  EXPECT_EQ(single.experiments[0].shm_size, "16Gi");
  EXPECT_EQ(parse("  a: {image: gemm, accelerators: [nvidia-l4]}\n").experiments[0].shm_size, "");
  expect_error("  a: {image: gemm, accelerators: [nvidia-l4], shmSize: lots}\n", 7, 56, "expected a Kubernetes quantity");
}

TEST(ScarceGpus, QueuedExperimentsUseTheQueuedQueue) {
  const std::string kueue = "kueue: {queue: gpu, gpus: {nvidia-h100-80gb: 16}}\n";
  const Project project = parse(
      "  q: {image: gemm, accelerators: [nvidia-h100-80gb], gpus: 8, nodes: 2, provisioning: queued, queue: gpu-queued}\n" +
      kueue);
  EXPECT_EQ(project.kueue->queued_queue(), "gpu-queued");
  expect_error("  q: {image: gemm, accelerators: [nvidia-h100-80gb], provisioning: queued, queue: gpu}\n" + kueue, 7, 83,
               "queued provisioning goes through queue 'gpu-queued'");
  expect_error("  q: {image: gemm, accelerators: [nvidia-h100-80gb], queue: gpu-queued}\n" + kueue, 7, 61,
               "queue 'gpu-queued' is for provisioning: queued; use 'gpu'");
  // Kueue admits the whole Job: 3 nodes of 8 GPUs do not fit 16.
  expect_error("  q: {image: gemm, accelerators: [nvidia-h100-80gb], gpus: 8, nodes: 3, provisioning: queued, "
               "queue: gpu-queued}\n" + kueue, 7, 102, "one of the experiment's Jobs needs 24");
}

}  // namespace
}  // namespace gkebuild::project
