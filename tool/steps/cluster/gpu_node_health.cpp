// The health of each GPU node: driver, device plugin, allocatable GPUs, the GPU taint.
#include <algorithm>
#include <set>

#include "tool/steps/cluster/cluster_nodes.h"

namespace gkebuild::cluster::detail {
namespace {

using nlohmann::json;

bool pod_ready(const json& pod) {
  for (const auto& condition : pod.value("status", json::object()).value("conditions", json::array()))
    if (text(condition, "type") == "Ready") return text(condition, "status") == "True";
  return false;
}

// "Init:CrashLoopBackOff" or the phase, for a pod that is not ready.
std::string pod_state(const json& pod) {
  const json status = pod.value("status", json::object());
  for (const char* list : {"initContainerStatuses", "containerStatuses"})
    for (const auto& container : status.value(list, json::array())) {
      const std::string reason = text(container.value("state", json::object()).value("waiting", json::object()), "reason");
      if (!reason.empty()) return std::string(list[0] == 'i' ? "Init:" : "") + reason;
    }
  const std::string phase = text(status, "phase");
  return phase.empty() ? "not ready" : phase;
}

// The kube-system pod on `node` whose k8s-app label or name is `app`.
const json* system_pod(const ClusterState& state, const std::string& node, const std::string& app) {
  for (const auto& pod : state.system_pods) {
    const json metadata = pod.value("metadata", json::object());
    if (text(pod.value("spec", json::object()), "nodeName") != node) continue;
    if (text(metadata.value("labels", json::object()), "k8s-app") == app || text(metadata, "name").starts_with(app))
      return &pod;
  }
  return nullptr;
}

void check_pod(std::vector<Finding>& out, const ClusterState& state, const Node& node, const std::string& app,
               const std::string& missing, const std::string& container) {
  const json* pod = system_pod(state, node.name, app);
  if (pod == nullptr) {
    out.push_back({false, false, "node " + node.name + " (" + node.accelerator() + "): " + missing});
    return;
  }
  if (pod_ready(*pod)) return;
  const std::string name = text(pod->value("metadata", json::object()), "name");
  out.push_back({false, false, "node " + node.name + " (" + node.accelerator() + "): " + app + " pod " + name +
                                   " is not ready (" + pod_state(*pod) + "): kubectl -n kube-system logs " + name +
                                   (container.empty() ? "" : " -c " + container)});
}

std::string installer_hint(project::DriverInstaller installer) {
  if (installer == project::DriverInstaller::Cos || installer == project::DriverInstaller::Ubuntu)
    return "gkebuild submit applies it (or: gkebuild render driver-installer | kubectl apply -f -)";
  return "set cluster.driverInstaller to cos or ubuntu so that submit applies it, or make the pool with "
         "gpuDriver: default";
}

}  // namespace

void check_gpu_nodes(std::vector<Finding>& out, const ClusterState& state, const std::vector<Node>& nodes,
                     project::DriverInstaller installer) {
  std::set<std::string> untainted_pools;
  for (const auto& node : nodes) {
    if (node.accelerator().empty()) continue;
    if (node.label(detail::kDriverVersionLabel).empty())
      check_pod(out, state, node, "nvidia-driver-installer",
                "no GKE-managed driver and no nvidia-driver-installer pod: " + installer_hint(installer),
                "nvidia-driver-installer");
    check_pod(out, state, node, "nvidia-gpu-device-plugin",
              "no nvidia-gpu-device-plugin pod, so its GPUs are not offered to pods", "");
    if (node.gpus == 0)
      out.push_back({false, false, "node " + node.name + " (" + node.accelerator() +
                                       "): 0 allocatable nvidia.com/gpu (the driver is loading or failed)"});
    const bool tainted = std::any_of(node.taints.begin(), node.taints.end(), [](const project::Taint& taint) {
      return taint.key == detail::kGpuResource && taint.effect == "NoSchedule";
    });
    if (!tainted) untainted_pools.insert(node.pool());
  }
  for (const auto& pool : untainted_pools)
    out.push_back({false, false, "pool " + pool + ": GPU nodes without the nvidia.com/gpu:NoSchedule taint, so other "
                                 "pods land there and keep the pool from scaling to zero: gcloud container node-pools "
                                 "update " + pool + " --node-taints=nvidia.com/gpu=present:NoSchedule …"});
}

}  // namespace gkebuild::cluster::detail
