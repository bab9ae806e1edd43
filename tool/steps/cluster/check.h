// `gkebuild cluster check`: can the experiments' Jobs run on the kubeconfig's cluster?
// Reads nodes (accelerator labels, allocatable nvidia.com/gpu, taints), the driver and
// device-plugin pods in kube-system and the cluster-autoscaler-status ConfigMap, and
// weighs them against what each Job selects and tolerates, with the project's own pool
// description for pools that are at zero nodes. One line per finding; a problem that
// means a Job could never be scheduled is marked blocking (submit refuses on those).
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tool/core/kube/cluster_api.h"
#include "tool/core/project/project.h"

namespace gkebuild::cluster {

struct Toleration {
  std::string key;
  std::string op = "Equal";  // Equal | Exists
  std::string value;
  std::string effect;  // empty: every effect
};

// What one Job asks of a node, read from its pod template.
struct JobNeeds {
  std::string experiment;
  std::string accelerator;
  int gpus = 0;
  std::map<std::string, std::string> node_selector;
  std::vector<Toleration> tolerations;

  bool operator<(const JobNeeds& other) const;
};

// `job` is a batch/v1 Job as submit renders it (the gkebuild.io/accelerator label names the accelerator).
JobNeeds needs_of(const nlohmann::json& job, const std::string& experiment);

// What the API server shows: Node items, kube-system Pod items, the autoscaler's status text.
struct ClusterState {
  nlohmann::json nodes = nlohmann::json::array();
  nlohmann::json system_pods = nlohmann::json::array();
  std::optional<std::string> autoscaler_status;  // data.status of kube-system/cluster-autoscaler-status
};

// Lists nodes and kube-system pods and gets the ConfigMap (absent: nullopt), through the
// cluster seam (an in-memory cluster in unit tests). API errors throw.
ClusterState read_cluster_state(kube::ClusterApi& cluster);

struct Finding {
  bool ok = false;        // a line that says what works
  bool blocking = false;  // a Job could never be scheduled
  std::string text;
};

struct CheckReport {
  std::vector<Finding> findings;
  bool has_problems() const;
  bool has_blocking() const;
  // "ok: …" and "problem: …" lines, blocking ones first among the problems.
  std::string text() const;
};

// `gke` is the project's cluster description, if it has one: its pools stand for nodes a
// pool at zero would make; `driver_installer` says whether submit applies the DaemonSet.
CheckReport check_cluster(const ClusterState& state, const std::vector<JobNeeds>& needs,
                          const project::GkeCluster* gke, project::DriverInstaller driver_installer);

// Reads `cluster` and checks `needs` against it, with the project's cluster description.
CheckReport check_cluster_for(kube::ClusterApi& cluster, const project::Project& project,
                              const std::vector<JobNeeds>& needs);

}  // namespace gkebuild::cluster
