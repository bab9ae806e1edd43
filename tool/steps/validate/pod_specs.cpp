#include "tool/steps/validate/pod_specs.h"

#include <string>

namespace gkebuild::validate {

const nlohmann::json* find_path(const nlohmann::json& object, const Path& path) {
  const nlohmann::json* current = &object;
  for (const auto& key : path) {
    if (!current->is_object()) return nullptr;
    auto it = current->find(key);
    if (it == current->end()) return nullptr;
    current = &*it;
  }
  return current;
}

namespace {
void add_if_object(const nlohmann::json& object, Path path, std::vector<PodSpecRef>& out) {
  if (const auto* spec = find_path(object, path); spec && spec->is_object()) out.push_back({std::move(path), spec});
}
}  // namespace

std::vector<PodSpecRef> pod_specs(const nlohmann::json& object) {
  std::vector<PodSpecRef> out;
  if (!object.is_object() || !object.contains("kind") || !object["kind"].is_string()) return out;
  const std::string kind = object["kind"].get<std::string>();
  if (kind == "Pod") {
    add_if_object(object, {"spec"}, out);
  } else if (kind == "CronJob") {
    add_if_object(object, {"spec", "jobTemplate", "spec", "template", "spec"}, out);
  } else if (kind == "PodTemplate") {
    add_if_object(object, {"template", "spec"}, out);
  } else if (kind == "JobSet") {
    const auto* jobs = find_path(object, {"spec", "replicatedJobs"});
    for (size_t i = 0; jobs && jobs->is_array() && i < jobs->size(); ++i)
      add_if_object(object, {"spec", "replicatedJobs", std::to_string(i), "template", "spec", "template", "spec"}, out);
  } else if (kind == "Job" || kind == "Deployment" || kind == "StatefulSet" || kind == "DaemonSet" ||
             kind == "ReplicaSet" || kind == "ReplicationController") {
    add_if_object(object, {"spec", "template", "spec"}, out);
  }
  return out;
}

std::vector<ContainerRef> containers(const PodSpecRef& pod) {
  std::vector<ContainerRef> out;
  for (const char* field : {"initContainers", "containers"}) {
    auto it = pod.spec->find(field);
    if (it == pod.spec->end() || !it->is_array()) continue;
    for (size_t i = 0; i < it->size(); ++i) {
      if (!(*it)[i].is_object()) continue;
      Path path = pod.path;
      path.push_back(field);
      path.push_back(std::to_string(i));
      out.push_back({std::move(path), &(*it)[i], std::string_view(field) == "initContainers"});
    }
  }
  return out;
}

}  // namespace gkebuild::validate
