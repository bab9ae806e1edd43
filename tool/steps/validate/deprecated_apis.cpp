// Deprecated and removed apiVersions per Kubernetes release (the same facts Pluto's
// versions.yaml records for the core APIs), checked against --kubernetes-version.
#include <string_view>

#include "tool/steps/validate/rules.h"

namespace gkebuild::validate {
namespace {

struct ApiChange {
  std::string_view api_version;
  std::string_view kind;
  int deprecated_minor;  // 1.x in which it was deprecated
  int removed_minor;     // 1.x in which it was removed
  std::string_view replacement;  // "" when there is none
};

constexpr ApiChange kApiChanges[] = {
    {"extensions/v1beta1", "Deployment", 9, 16, "apps/v1"},
    {"extensions/v1beta1", "DaemonSet", 9, 16, "apps/v1"},
    {"extensions/v1beta1", "ReplicaSet", 9, 16, "apps/v1"},
    {"extensions/v1beta1", "StatefulSet", 9, 16, "apps/v1"},
    {"extensions/v1beta1", "NetworkPolicy", 9, 16, "networking.k8s.io/v1"},
    {"extensions/v1beta1", "PodSecurityPolicy", 10, 16, "policy/v1beta1"},
    {"extensions/v1beta1", "Ingress", 14, 22, "networking.k8s.io/v1"},
    {"apps/v1beta1", "Deployment", 9, 16, "apps/v1"},
    {"apps/v1beta1", "StatefulSet", 9, 16, "apps/v1"},
    {"apps/v1beta2", "Deployment", 9, 16, "apps/v1"},
    {"apps/v1beta2", "DaemonSet", 9, 16, "apps/v1"},
    {"apps/v1beta2", "ReplicaSet", 9, 16, "apps/v1"},
    {"apps/v1beta2", "StatefulSet", 9, 16, "apps/v1"},
    {"networking.k8s.io/v1beta1", "Ingress", 19, 22, "networking.k8s.io/v1"},
    {"networking.k8s.io/v1beta1", "IngressClass", 19, 22, "networking.k8s.io/v1"},
    {"batch/v2alpha1", "CronJob", 8, 21, "batch/v1"},
    {"batch/v1beta1", "CronJob", 21, 25, "batch/v1"},
    {"policy/v1beta1", "PodDisruptionBudget", 21, 25, "policy/v1"},
    {"policy/v1beta1", "PodSecurityPolicy", 21, 25, ""},
    {"autoscaling/v2beta1", "HorizontalPodAutoscaler", 22, 25, "autoscaling/v2"},
    {"autoscaling/v2beta2", "HorizontalPodAutoscaler", 23, 26, "autoscaling/v2"},
    {"rbac.authorization.k8s.io/v1beta1", "Role", 17, 22, "rbac.authorization.k8s.io/v1"},
    {"rbac.authorization.k8s.io/v1beta1", "ClusterRole", 17, 22, "rbac.authorization.k8s.io/v1"},
    {"rbac.authorization.k8s.io/v1beta1", "RoleBinding", 17, 22, "rbac.authorization.k8s.io/v1"},
    {"rbac.authorization.k8s.io/v1beta1", "ClusterRoleBinding", 17, 22, "rbac.authorization.k8s.io/v1"},
    {"apiextensions.k8s.io/v1beta1", "CustomResourceDefinition", 16, 22, "apiextensions.k8s.io/v1"},
    {"admissionregistration.k8s.io/v1beta1", "MutatingWebhookConfiguration", 16, 22, "admissionregistration.k8s.io/v1"},
    {"admissionregistration.k8s.io/v1beta1", "ValidatingWebhookConfiguration", 16, 22, "admissionregistration.k8s.io/v1"},
    {"scheduling.k8s.io/v1beta1", "PriorityClass", 14, 22, "scheduling.k8s.io/v1"},
    {"storage.k8s.io/v1beta1", "StorageClass", 19, 22, "storage.k8s.io/v1"},
    {"storage.k8s.io/v1beta1", "CSIDriver", 19, 22, "storage.k8s.io/v1"},
    {"storage.k8s.io/v1beta1", "CSINode", 17, 22, "storage.k8s.io/v1"},
    {"storage.k8s.io/v1beta1", "VolumeAttachment", 19, 22, "storage.k8s.io/v1"},
    {"storage.k8s.io/v1beta1", "CSIStorageCapacity", 24, 27, "storage.k8s.io/v1"},
    {"coordination.k8s.io/v1beta1", "Lease", 14, 22, "coordination.k8s.io/v1"},
    {"certificates.k8s.io/v1beta1", "CertificateSigningRequest", 19, 22, "certificates.k8s.io/v1"},
    {"apiregistration.k8s.io/v1beta1", "APIService", 19, 22, "apiregistration.k8s.io/v1"},
    {"discovery.k8s.io/v1beta1", "EndpointSlice", 21, 25, "discovery.k8s.io/v1"},
    {"events.k8s.io/v1beta1", "Event", 19, 25, "events.k8s.io/v1"},
    {"node.k8s.io/v1beta1", "RuntimeClass", 20, 25, "node.k8s.io/v1"},
    {"flowcontrol.apiserver.k8s.io/v1beta1", "FlowSchema", 23, 26, "flowcontrol.apiserver.k8s.io/v1"},
    {"flowcontrol.apiserver.k8s.io/v1beta1", "PriorityLevelConfiguration", 23, 26, "flowcontrol.apiserver.k8s.io/v1"},
    {"flowcontrol.apiserver.k8s.io/v1beta2", "FlowSchema", 26, 29, "flowcontrol.apiserver.k8s.io/v1"},
    {"flowcontrol.apiserver.k8s.io/v1beta2", "PriorityLevelConfiguration", 26, 29, "flowcontrol.apiserver.k8s.io/v1"},
    {"flowcontrol.apiserver.k8s.io/v1beta3", "FlowSchema", 29, 32, "flowcontrol.apiserver.k8s.io/v1"},
    {"flowcontrol.apiserver.k8s.io/v1beta3", "PriorityLevelConfiguration", 29, 32, "flowcontrol.apiserver.k8s.io/v1"},
};

std::string replacement_text(const ApiChange& change) {
  return change.replacement.empty() ? std::string(" and has no replacement")
                                    : "; use " + std::string(change.replacement);
}

}  // namespace

bool check_api_version(RuleReporter& r, const KubernetesVersion& version) {
  const std::string api_version = r.manifest().api_version();
  const std::string kind = r.manifest().kind();
  for (const auto& change : kApiChanges) {
    if (change.api_version != api_version || change.kind != kind) continue;
    std::string what = kind + " " + api_version;
    if (version.major == 1 && version.minor >= change.removed_minor) {
      r.report("removed-api", {"apiVersion"},
               what + " was removed in Kubernetes 1." + std::to_string(change.removed_minor) + replacement_text(change));
      return true;
    }
    if (version.major == 1 && version.minor >= change.deprecated_minor)
      r.report("deprecated-api", {"apiVersion"},
               what + " is deprecated since 1." + std::to_string(change.deprecated_minor) + " and removed in 1." +
                   std::to_string(change.removed_minor) + replacement_text(change));
    return false;
  }
  return false;
}

}  // namespace gkebuild::validate
