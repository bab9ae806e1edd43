// The nodes `cluster check` reasons about: the API server's Node objects, and stand-ins
// for the nodes a pool of gkebuild.yaml would make (labels and taints GKE gives them), for
// pools at zero. Also the autoscaler's node groups from its status ConfigMap.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tool/core/project/project.h"
#include "tool/steps/cluster/check.h"

namespace gkebuild::cluster::detail {

inline constexpr const char* kAcceleratorLabel = "cloud.google.com/gke-accelerator";
inline constexpr const char* kPoolLabel = "cloud.google.com/gke-nodepool";
inline constexpr const char* kDriverVersionLabel = "cloud.google.com/gke-gpu-driver-version";
inline constexpr const char* kGpuResource = "nvidia.com/gpu";

struct Node {
  std::string name;  // the pool's name for a stand-in
  std::map<std::string, std::string> labels;
  std::vector<project::Taint> taints;
  double gpus = 0;  // allocatable nvidia.com/gpu
  bool schedulable = true;  // Ready and not cordoned
  bool stand_in = false;

  std::string label(const std::string& key) const;
  std::string pool() const { return label(kPoolLabel); }
  std::string accelerator() const { return label(kAcceleratorLabel); }
};

std::vector<Node> nodes_of(const nlohmann::json& items);
// What GKE labels and taints a node of `pool` with.
Node stand_in_node(const project::GpuPool& pool);

// "" when `node` can take a pod with these needs; else why not (a taint, a label).
std::string mismatch(const Node& node, const JobNeeds& needs);

struct NodeGroup {
  std::string name;  // on GKE a zonal instance-group URL that holds the pool's name
  int min_size = 0;
  int max_size = 0;
  std::string scale_up;  // Backoff, InProgress…
  std::string backoff_message;
};

// nodeGroups of the ConfigMap's YAML (CA 1.30 on); the older free text gives none.
std::vector<NodeGroup> node_groups(const std::string& status);
// The groups of `pool` (GKE instance groups are named gke-CLUSTER-POOL-HASH-grp).
std::vector<NodeGroup> groups_of_pool(const std::vector<NodeGroup>& groups, const std::string& pool);

// A string member of a JSON object, or "".
std::string text(const nlohmann::json& object, const char* key);

// gpu_node_health.cpp: on each GPU node, the GKE-managed driver or the installer pod ready, the
// device plugin ready, allocatable GPUs, and per pool the nvidia.com/gpu taint.
void check_gpu_nodes(std::vector<Finding>& out, const ClusterState& state, const std::vector<Node>& nodes,
                     project::DriverInstaller installer);

}  // namespace gkebuild::cluster::detail
