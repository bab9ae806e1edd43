// Project files with a GKE cluster section for the `gkebuild cluster` tests: every kind of
// GPU pool (spot with the latest driver, time-sharing, MIG with the installer DaemonSet, MPS
// without taints, derived from an experiment) and an Autopilot cluster.
#pragma once

#include <string>

namespace gkebuild::testing {

inline const std::string kProjectHead =
    "apiVersion: gkebuild/v1\n"
    "project: demo\n"
    "registry: 127.0.0.1:5000/exp\n"
    "images:\n"
    "  gemm: {workload: gemm-bench}\n"
    "experiments:\n"
    "  a: {image: gemm, accelerators: [nvidia-l4], spot: true}\n"
    "  b: {image: gemm, accelerators: [nvidia-tesla-t4]}\n";

inline const std::string kEveryPool = kProjectHead +
    "cluster:\n"
    "  driverInstaller: cos\n"
    "  gcpProject: my-project\n"
    "  location: us-central1\n"
    "  nodeLocations: [us-central1-a, us-central1-c]\n"
    "  adminPool: {machineType: e2-standard-2}\n"
    "  gpuPools:\n"
    "    maxNodes: 3\n"
    "    pools:\n"
    "      l4-spot: {accelerator: nvidia-l4, spot: true, gpuDriver: latest}\n"
    "      t4-shared: {accelerator: nvidia-tesla-t4, sharing: time-sharing, clientsPerGpu: 4}\n"
    "      a100-mig: {accelerator: nvidia-tesla-a100, migPartition: 1g.5gb, gpuDriver: installer, minNodes: 1}\n"
    "      h100: {accelerator: nvidia-h100-80gb, gpusPerNode: 8, sharing: mps, taints: []}\n";

// Pools derived from the experiments: l4-spot and t4.
inline const std::string kDerivedPools = kProjectHead +
    "cluster:\n"
    "  gcpProject: my-project\n"
    "  location: us-central1\n";

inline const std::string kAutopilot = kProjectHead +
    "cluster:\n"
    "  gcpProject: my-project\n"
    "  location: us-central1\n"
    "  autopilot: true\n";

// Scarce GPUs: flex-start, queued provisioning (multi-node, so gVNIC), a shared reservation
// with compact placement, a written-out flex-start pool with maxRunDuration, and storage.gcs
// (the GCS FUSE add-on, Workload Identity, the GKE metadata server, the bucket's IAM binding).
inline const std::string kScarce =
    "apiVersion: gkebuild/v1\n"
    "project: demo\n"
    "registry: 127.0.0.1:5000/exp\n"
    "images:\n"
    "  gemm: {workload: gemm-bench}\n"
    "storage:\n"
    "  gcs: {bucket: my-bucket, mountPath: /data, onlyDir: datasets}\n"
    "experiments:\n"
    "  flex: {image: gemm, accelerators: [nvidia-l4], provisioning: flex-start}\n"
    "  queued: {image: gemm, accelerators: [nvidia-h100-80gb], gpus: 8, nodes: 2, provisioning: queued, queue: q}\n"
    "  res: {image: gemm, accelerators: [nvidia-h100-80gb], gpus: 8, nodes: 2, compact: true,\n"
    "        reservation: projects/owner-proj/reservations/h100-res}\n"
    "cluster:\n"
    "  gcpProject: my-project\n"
    "  location: us-central1\n"
    "  nodeLocations: [us-central1-a]\n"
    "  serviceAccount: trainer\n";

// The same with the pools written out: a flex-start pool with a run-time limit beside them.
inline const std::string kScarcePools = kScarce +
    "  gpuPools:\n"
    "    pools:\n"
    "      l4-flex: {accelerator: nvidia-l4, provisioning: flex-start, maxRunDuration: 24h}\n";

}  // namespace gkebuild::testing
