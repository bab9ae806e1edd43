#include "tool/steps/cluster/cluster_nodes.h"

#include <yaml-cpp/yaml.h>

#include "base/quantity.h"

namespace gkebuild::cluster::detail {
namespace {

using nlohmann::json;

bool tolerates(const Toleration& toleration, const project::Taint& taint) {
  if (!toleration.effect.empty() && toleration.effect != taint.effect) return false;
  if (toleration.key.empty()) return toleration.op == "Exists";
  if (toleration.key != taint.key) return false;
  return toleration.op == "Exists" || toleration.value == taint.value;
}

std::string describe(const project::Taint& taint) {
  return taint.key + (taint.value.empty() ? "" : "=" + taint.value) + ":" + taint.effect;
}

int yaml_int(const YAML::Node& node, int fallback) {
  try {
    return node ? node.as<int>() : fallback;
  } catch (const YAML::Exception&) {
    return fallback;
  }
}

std::string yaml_text(const YAML::Node& node) { return node && node.IsScalar() ? node.Scalar() : ""; }

}  // namespace

std::string text(const json& object, const char* key) {
  auto found = object.find(key);
  return found != object.end() && found->is_string() ? found->get<std::string>() : "";
}

std::string Node::label(const std::string& key) const {
  auto found = labels.find(key);
  return found == labels.end() ? "" : found->second;
}

std::vector<Node> nodes_of(const json& items) {
  std::vector<Node> nodes;
  for (const auto& item : items) {
    Node node;
    const json metadata = item.value("metadata", json::object());
    node.name = metadata.value("name", "");
    const json labels = metadata.value("labels", json::object());
    for (const auto& [key, value] : labels.items())
      if (value.is_string()) node.labels[key] = value.get<std::string>();
    const json spec = item.value("spec", json::object());
    node.schedulable = !spec.value("unschedulable", false);
    for (const auto& condition : item.value("status", json::object()).value("conditions", json::array()))
      if (text(condition, "type") == "Ready" && text(condition, "status") != "True") node.schedulable = false;
    for (const auto& taint : spec.value("taints", json::array()))
      node.taints.push_back({taint.value("key", ""), taint.value("value", ""), taint.value("effect", "")});
    const json allocatable = item.value("status", json::object()).value("allocatable", json::object());
    if (allocatable.contains(kGpuResource) && allocatable[kGpuResource].is_string())
      node.gpus = parse_quantity(allocatable[kGpuResource].get<std::string>()).value_or(0);
    nodes.push_back(std::move(node));
  }
  return nodes;
}

Node stand_in_node(const project::GpuPool& pool) {
  Node node;
  node.name = pool.name;
  node.stand_in = true;
  node.labels[kAcceleratorLabel] = pool.accelerator;
  node.labels[kPoolLabel] = pool.name;
  node.labels["node.kubernetes.io/instance-type"] = pool.machine_type;  // what a CPU-only Job selects
  node.labels["cloud.google.com/gke-accelerator-count"] = std::to_string(pool.gpus_per_node);
  if (pool.spot) node.labels["cloud.google.com/gke-spot"] = "true";
  // The labels GKE gives flex-start (and queued) nodes and those of a specific reservation,
  // which the Jobs select (gke-scarce-gpus-and-multinode.md 1.3, 3; see docs/clusters.md,
  // "What gkebuild assumes").
  if (project::is_flex(pool.provisioning)) node.labels["cloud.google.com/gke-flex-start"] = "true";
  // Only queued-provisioning nodes carry gke-queued, which queued Jobs select beside gke-flex-start.
  if (pool.provisioning == project::Provisioning::Queued) node.labels["cloud.google.com/gke-queued"] = "true";
  if (!pool.reservation.empty()) {
    const auto slash = pool.reservation.rfind('/');
    node.labels["cloud.google.com/reservation-name"] = pool.reservation.substr(slash == std::string::npos ? 0 : slash + 1);
    if (slash != std::string::npos)
      node.labels["cloud.google.com/reservation-project"] = pool.reservation.substr(9, pool.reservation.find('/', 9) - 9);
  }
  if (pool.driver != project::GpuDriver::Installer)
    node.labels[kDriverVersionLabel] = pool.driver == project::GpuDriver::Latest ? "latest" : "default";
  if (!pool.sharing.empty()) {
    node.labels["cloud.google.com/gke-gpu-sharing-strategy"] = pool.sharing;
    node.labels["cloud.google.com/gke-max-shared-clients-per-gpu"] = std::to_string(pool.clients_per_gpu);
  }
  if (!pool.partition.empty()) node.labels["cloud.google.com/gke-gpu-partition-size"] = pool.partition;
  node.taints = pool.taints;
  // A shared GPU counts once per client; a MIG GPU at least once (partitions per GPU vary).
  node.gpus = pool.gpus_per_node * (pool.sharing.empty() ? 1 : pool.clients_per_gpu);
  return node;
}

std::string mismatch(const Node& node, const JobNeeds& needs) {
  for (const auto& [key, value] : needs.node_selector) {
    const std::string has = node.label(key);
    if (has != value)
      return "the Jobs select " + key + "=" + value + ", the node has " + (has.empty() ? "no such label" : has);
  }
  for (const auto& taint : node.taints) {
    if (taint.effect != "NoSchedule" && taint.effect != "NoExecute") continue;
    bool tolerated = false;
    for (const auto& toleration : needs.tolerations) tolerated = tolerated || tolerates(toleration, taint);
    if (!tolerated) return "its taint " + describe(taint) + " is not tolerated by the Jobs";
  }
  return "";
}

std::vector<NodeGroup> node_groups(const std::string& status) {
  std::vector<NodeGroup> groups;
  YAML::Node root;
  try {
    root = YAML::Load(status);
  } catch (const YAML::Exception&) {
    return groups;
  }
  if (!root.IsMap() || !root["nodeGroups"] || !root["nodeGroups"].IsSequence()) return groups;
  for (const auto& item : root["nodeGroups"]) {
    if (!item.IsMap()) continue;
    NodeGroup group;
    group.name = yaml_text(item["name"]);
    const YAML::Node health = item["health"];
    group.min_size = health && health.IsMap() ? yaml_int(health["minSize"], 0) : 0;
    group.max_size = health && health.IsMap() ? yaml_int(health["maxSize"], 0) : 0;
    const YAML::Node scale_up = item["scaleUp"];
    if (scale_up && scale_up.IsMap()) {
      group.scale_up = yaml_text(scale_up["status"]);
      const YAML::Node backoff = scale_up["backoffInfo"];
      if (backoff && backoff.IsMap())
        group.backoff_message = yaml_text(backoff["errorCode"]) + ": " + yaml_text(backoff["errorMessage"]);
    }
    groups.push_back(std::move(group));
  }
  return groups;
}

std::vector<NodeGroup> groups_of_pool(const std::vector<NodeGroup>& groups, const std::string& pool) {
  std::vector<NodeGroup> found;
  for (const auto& group : groups) {
    const std::string last = group.name.substr(group.name.rfind('/') + 1);
    if (last.find("-" + pool + "-") != std::string::npos || last == pool) found.push_back(group);
  }
  return found;
}

}  // namespace gkebuild::cluster::detail
