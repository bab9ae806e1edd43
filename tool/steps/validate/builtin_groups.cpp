#include "tool/steps/validate/builtin_groups.h"

#include <algorithm>
#include <array>

namespace gkebuild::validate {
namespace {

// Every group in x-kubernetes-group-version-kind of the OpenAPI documents
// (_definitions.json) of Kubernetes 1.25 to 1.37 as kubernetes-validate 1.37 ships
// them, plus the groups of older releases whose APIs deprecated_apis.cpp still names
// (settings.k8s.io: PodPreset until 1.19; auditregistration.k8s.io: AuditSink 1.13-1.18).
// Sorted, for binary search.
constexpr std::array<std::string_view, 29> kBuiltinGroups = {
    "",
    "admission.k8s.io",
    "admissionregistration.k8s.io",
    "apiextensions.k8s.io",
    "apiregistration.k8s.io",
    "apps",
    "auditregistration.k8s.io",
    "authentication.k8s.io",
    "authorization.k8s.io",
    "autoscaling",
    "batch",
    "certificates.k8s.io",
    "coordination.k8s.io",
    "discovery.k8s.io",
    "events.k8s.io",
    "extensions",
    "flowcontrol.apiserver.k8s.io",
    "imagepolicy.k8s.io",
    "internal.apiserver.k8s.io",
    "lifecycle.k8s.io",
    "networking.k8s.io",
    "node.k8s.io",
    "policy",
    "rbac.authorization.k8s.io",
    "resource.k8s.io",
    "scheduling.k8s.io",
    "settings.k8s.io",
    "storage.k8s.io",
    "storagemigration.k8s.io",
};
static_assert(std::is_sorted(kBuiltinGroups.begin(), kBuiltinGroups.end()));

}  // namespace

bool is_builtin_api_group(std::string_view api_version) {
  size_t slash = api_version.find('/');
  std::string_view group = slash == std::string_view::npos ? std::string_view() : api_version.substr(0, slash);
  return std::binary_search(kBuiltinGroups.begin(), kBuiltinGroups.end(), group);
}

}  // namespace gkebuild::validate
