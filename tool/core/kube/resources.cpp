#include "tool/core/kube/resources.h"

#include <array>
#include <stdexcept>

#include "base/error.h"
#include "base/http_client.h"
#include "base/printable.h"
#include "base/suggest.h"

namespace gkebuild::kube {
namespace {

constexpr std::array kTypes{
    ResourceType{"v1", "Namespace", "namespaces", false},
    ResourceType{"v1", "Node", "nodes", false},
    ResourceType{"v1", "Pod", "pods", true},
    ResourceType{"v1", "Service", "services", true},
    ResourceType{"v1", "ConfigMap", "configmaps", true},
    ResourceType{"v1", "Secret", "secrets", true},
    ResourceType{"v1", "PersistentVolume", "persistentvolumes", false},
    ResourceType{"v1", "PersistentVolumeClaim", "persistentvolumeclaims", true},
    ResourceType{"v1", "Event", "events", true},
    // submit --managed: the run controller's identity and what it may touch.
    ResourceType{"v1", "ServiceAccount", "serviceaccounts", true},
    ResourceType{"rbac.authorization.k8s.io/v1", "Role", "roles", true},
    ResourceType{"rbac.authorization.k8s.io/v1", "RoleBinding", "rolebindings", true},
    ResourceType{"batch/v1", "Job", "jobs", true},
    ResourceType{"apps/v1", "DaemonSet", "daemonsets", true},
    ResourceType{"apps/v1", "Deployment", "deployments", true},
    // Read only: why a Job queued in Kueue waits (v1beta1 is served by every Kueue release so far).
    ResourceType{"kueue.x-k8s.io/v1beta1", "Workload", "workloads", true},
};

}  // namespace

const ResourceType& resource_type(std::string_view api_version, std::string_view kind) {
  for (const auto& type : kTypes)
    if (type.api_version == api_version && type.kind == kind) return type;
  std::vector<std::string> known;
  for (const auto& type : kTypes) known.push_back(std::string(type.api_version) + " " + std::string(type.kind));
  const std::string asked = std::string(api_version) + " " + std::string(kind);
  std::string list;
  for (const auto& name : known) list += (list.empty() ? "" : ", ") + name;
  throw Error(ErrorKind::kBadInput, "gkebuild does not send objects of kind " + in_quotes(asked) +
              did_you_mean(asked, known) + "; it knows " + list);
}

const ResourceType& resource_type_of(const nlohmann::json& object) {
  if (!object.is_object() || !object.contains("apiVersion") || !object.contains("kind") ||
      !object["apiVersion"].is_string() || !object["kind"].is_string())
    throw Error(ErrorKind::kBadInput, "a Kubernetes object needs string apiVersion and kind fields");
  return resource_type(object["apiVersion"].get<std::string>(), object["kind"].get<std::string>());
}

std::string collection_path(const ResourceType& type, const std::string& namespace_name) {
  std::string path = type.api_version.find('/') == std::string_view::npos ? "/api/" : "/apis/";
  path += type.api_version;
  if (type.namespaced) path += "/namespaces/" + percent_encode(namespace_name);
  path += "/";
  path += type.plural;
  return path;
}

std::string object_path(const ResourceType& type, const std::string& namespace_name, const std::string& name) {
  return collection_path(type, namespace_name) + "/" + percent_encode(name);
}

}  // namespace gkebuild::kube
