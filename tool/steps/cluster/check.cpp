#include "tool/steps/cluster/check.h"

#include <algorithm>
#include <set>
#include <tuple>

#include "tool/core/kube/objects.h"
#include "tool/steps/cluster/cluster_nodes.h"

namespace gkebuild::cluster {
namespace {

using detail::Node;
using detail::text;
using nlohmann::json;

std::string needs_key(const JobNeeds& needs) {
  std::string key = needs.accelerator + "|" + std::to_string(needs.gpus);
  for (const auto& [name, value] : needs.node_selector) key += "|" + name + "=" + value;
  for (const auto& t : needs.tolerations) key += "|" + t.key + t.op + t.value + ":" + t.effect;
  return key;
}

std::string gpus_text(double gpus) {
  const long whole = static_cast<long>(gpus);
  return std::to_string(whole) + " nvidia.com/gpu";
}

// "nvidia-l4 (experiments a, b)"
std::string subject(const JobNeeds& needs, const std::vector<std::string>& experiments) {
  std::string names;
  for (const auto& name : experiments) names += (names.empty() ? "" : ", ") + name;
  return needs.accelerator + " (" + (experiments.size() > 1 ? "experiments " : "experiment ") + names +
         (needs.gpus > 1 ? ", " + std::to_string(needs.gpus) + " GPUs per pod" : "") + ")";
}

struct Scheduling {
  const ClusterState& state;
  const std::vector<Node>& nodes;
  const project::GkeCluster* gke;
  std::vector<detail::NodeGroup> groups;
};

// Nodes that take the Jobs and have room for one pod.
std::vector<const Node*> fitting(const std::vector<Node>& nodes, const JobNeeds& needs, bool* only_too_small) {
  std::vector<const Node*> fit;
  bool matched = false;
  for (const auto& node : nodes) {
    if (!node.schedulable || !detail::mismatch(node, needs).empty()) continue;
    matched = true;
    if (node.gpus >= needs.gpus) fit.push_back(&node);
  }
  if (only_too_small) *only_too_small = matched && fit.empty();
  return fit;
}

Finding from_pool(const Scheduling& at, const Node& stand_in, const std::string& who) {
  const std::string pool = stand_in.name;
  if (!at.state.autoscaler_status)
    return {true, false, who + ": no node now; pool " + pool + " of gkebuild.yaml makes them when a Job waits " +
                             "(no cluster-autoscaler-status ConfigMap to confirm it exists)"};
  const auto groups = detail::groups_of_pool(at.groups, pool);
  if (groups.empty())
    return {false, true, who + ": no node now, and the cluster autoscaler knows no node group for pool " + pool +
                             " of gkebuild.yaml: run `gkebuild cluster up`"};
  int max = 0;
  for (const auto& group : groups) max += group.max_size;
  for (const auto& group : groups)
    if (group.scale_up == "Backoff")
      return {false, false, who + ": pool " + pool + " cannot scale up now (autoscaler backoff: " + group.backoff_message +
                                ")" + (group.backoff_message.find("QUOTA") != std::string::npos ||
                                               group.backoff_message.find("uota") != std::string::npos
                                           ? "; ask for more GPU quota in the region"
                                           : "")};
  if (max == 0)
    return {false, true, who + ": pool " + pool + " has autoscaling max 0: raise it (gpuPools maxNodes, then " +
                             "gcloud container node-pools update " + pool + " --enable-autoscaling --total-max-nodes=N)"};
  return {true, false, who + ": no node now; pool " + pool + " scales from 0 up to " + std::to_string(max) + " nodes"};
}

// Why none of the nodes of this accelerator fit, from the first that does not.
std::string near_miss(const std::vector<Node>& nodes, const JobNeeds& needs) {
  for (const auto& node : nodes)
    if (node.accelerator() == needs.accelerator) {
      if (!node.schedulable) return "its node " + node.name + " is cordoned or not Ready";
      const std::string why = detail::mismatch(node, needs);
      if (!why.empty()) return "its nodes do not take the Jobs (node " + node.name + ": " + why + ")";
      return "its nodes offer at most " + gpus_text(node.gpus);
    }
  return "";
}

// The custom ComputeClass a Job selects (an experiment's fallback:), or "": Autopilot's built-in
// Accelerator class is no such class (the Job still names its GPU).
std::string custom_compute_class(const JobNeeds& needs) {
  const auto found = needs.node_selector.find("cloud.google.com/compute-class");
  return found == needs.node_selector.end() || found->second == "Accelerator" ? "" : found->second;
}

Finding without_nodes(const Scheduling& at, const JobNeeds& needs, const std::string& who) {
  if (at.gke && at.gke->autopilot) return {true, false, who + ": Autopilot makes a node for each Job's selectors"};
  // GKE creates the nodes of a class with node pool auto-creation when its Jobs wait; whether the
  // class is applied is not read here (the API server of a test or a non-GKE cluster has no such kind).
  if (const std::string name = custom_compute_class(needs); !name.empty())
    return {true, false, who + ": selects the ComputeClass " + name + ", whose node pools GKE creates by its "
                               "priorities (apply it first: gkebuild render compute-classes | kubectl apply -f -)"};
  if (at.gke)
    for (const auto& pool : at.gke->pools) {
      const Node stand_in = detail::stand_in_node(pool);
      if (detail::mismatch(stand_in, needs).empty() && stand_in.gpus >= needs.gpus) return from_pool(at, stand_in, who);
    }
  if (at.nodes.empty())
    return {false, false, who + ": the cluster lists no nodes (Autopilot, or every pool at zero): cannot tell " +
                              "whether a pool offers " + needs.accelerator};
  // Pools at zero that the project does not describe: the autoscaler may still make their nodes.
  std::set<std::string> pools_with_nodes;
  for (const auto& node : at.nodes) pools_with_nodes.insert(node.pool());
  for (const auto& group : at.groups) {
    bool known = false;
    for (const auto& pool : pools_with_nodes) known = known || !detail::groups_of_pool({group}, pool).empty();
    if (!known && group.max_size > 0)
      return {false, false, who + ": no node offers it now; the autoscaler's node group " + group.name +
                                " is at zero and may (describe the pools in gkebuild.yaml's cluster: to know)"};
  }
  const std::string why = near_miss(at.nodes, needs);
  if (!why.empty())
    return {false, true, who + ": " + why + ", and autoscaling cannot make one that does: fix the pool or the experiment"};
  return {false, true, who + ": no node pool offers " + needs.accelerator +
                           " and autoscaling cannot create one: run `gkebuild cluster up` or add a pool"};
}

Finding schedule(const Scheduling& at, const JobNeeds& needs, const std::string& who) {
  bool only_too_small = false;
  const auto fit = fitting(at.nodes, needs, &only_too_small);
  if (!fit.empty()) {
    std::set<std::string> pools;
    for (const Node* node : fit) pools.insert(node->pool());
    std::string names;
    for (const auto& pool : pools) names += (names.empty() ? "" : ", ") + pool;
    return {true, false, who + ": " + std::to_string(fit.size()) + (fit.size() == 1 ? " node" : " nodes") + " (pool " +
                             names + ")" +
                             // A CPU-only Job (no GPU asked) fits any node it selects and tolerates.
                             (needs.gpus > 0 ? " with " + gpus_text(fit.front()->gpus) + " allocatable" : "")};
  }
  Finding later = without_nodes(at, needs, who);
  if (only_too_small && !later.ok)
    return {false, false, who + ": its nodes offer fewer than " + std::to_string(needs.gpus) +
                              " allocatable nvidia.com/gpu now (driver or device plugin not ready? see below)"};
  return later;
}

}  // namespace

bool JobNeeds::operator<(const JobNeeds& other) const { return needs_key(*this) < needs_key(other); }

JobNeeds needs_of(const json& job, const std::string& experiment) {
  JobNeeds needs;
  needs.experiment = experiment;
  needs.accelerator = text(job.value("metadata", json::object()).value("labels", json::object()), "gkebuild.io/accelerator");
  const json pod = job.value("spec", json::object()).value("template", json::object()).value("spec", json::object());
  const json selector = pod.value("nodeSelector", json::object());
  for (const auto& [key, value] : selector.items())
    if (value.is_string()) needs.node_selector[key] = value.get<std::string>();
  if (needs.accelerator.empty()) needs.accelerator = needs.node_selector[detail::kAcceleratorLabel];
  for (const auto& item : pod.value("tolerations", json::array()))
    needs.tolerations.push_back({text(item, "key"), item.contains("operator") ? text(item, "operator") : "Equal",
                                 text(item, "value"), text(item, "effect")});
  for (const auto& container : pod.value("containers", json::array())) {
    const json limits = container.value("resources", json::object()).value("limits", json::object());
    if (limits.contains(detail::kGpuResource))
      needs.gpus += limits[detail::kGpuResource].is_number() ? limits[detail::kGpuResource].get<int>()
                                                             : std::stoi(limits[detail::kGpuResource].get<std::string>());
  }
  return needs;
}

ClusterState read_cluster_state(kube::ClusterApi& cluster) {
  ClusterState state;
  state.nodes = cluster.list(kube::resource_type("v1", "Node"), "", {}).value("items", json::array());
  state.system_pods = cluster.list(kube::resource_type("v1", "Pod"), "kube-system", {}).value("items", json::array());
  const auto status = cluster.get(kube::resource_type("v1", "ConfigMap"), "kube-system", "cluster-autoscaler-status");
  if (status) state.autoscaler_status = text(status->value("data", json::object()), "status");
  return state;
}

bool CheckReport::has_problems() const {
  return std::any_of(findings.begin(), findings.end(), [](const Finding& f) { return !f.ok; });
}

bool CheckReport::has_blocking() const {
  return std::any_of(findings.begin(), findings.end(), [](const Finding& f) { return f.blocking; });
}

std::string CheckReport::text() const {
  std::string out;
  for (const auto& f : findings)
    if (f.blocking) out += "never schedulable: " + f.text + "\n";
  for (const auto& f : findings)
    if (!f.blocking) out += (f.ok ? "ok: " : "problem: ") + f.text + "\n";
  return out;
}

CheckReport check_cluster(const ClusterState& state, const std::vector<JobNeeds>& needs, const project::GkeCluster* gke,
                          project::DriverInstaller driver_installer) {
  const std::vector<Node> nodes = detail::nodes_of(state.nodes);
  Scheduling at{state, nodes, gke, state.autoscaler_status ? detail::node_groups(*state.autoscaler_status)
                                                           : std::vector<detail::NodeGroup>{}};
  // One finding per distinct need, naming every experiment that has it.
  std::vector<std::pair<JobNeeds, std::vector<std::string>>> distinct;
  for (const auto& need : needs) {
    auto same = std::find_if(distinct.begin(), distinct.end(), [&](const auto& d) { return needs_key(d.first) == needs_key(need); });
    if (same == distinct.end()) distinct.push_back({need, {need.experiment}});
    else if (std::find(same->second.begin(), same->second.end(), need.experiment) == same->second.end())
      same->second.push_back(need.experiment);
  }
  CheckReport report;
  for (const auto& [need, experiments] : distinct) report.findings.push_back(schedule(at, need, subject(need, experiments)));
  detail::check_gpu_nodes(report.findings, state, nodes, driver_installer);
  return report;
}

CheckReport check_cluster_for(kube::ClusterApi& cluster, const project::Project& project,
                              const std::vector<JobNeeds>& needs) {
  const auto state = read_cluster_state(cluster);
  const auto* gke = project.cluster.gke ? &*project.cluster.gke : nullptr;
  return check_cluster(state, needs, gke, project.cluster.driver_installer);
}

}  // namespace gkebuild::cluster
