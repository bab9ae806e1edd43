// How Kubernetes JSON schema files are named, in the layout kubeconform and
// kubernetes-validate share: Job batch/v1 -> job-batch-v1.json, Pod v1 -> pod-v1.json.
#pragma once

#include <string>
#include <string_view>

namespace gkebuild::validate {

struct SchemaNames {
  std::string resource_kind;         // "job"
  std::string group;                 // "batch", "rbac.authorization.k8s.io", "" for core
  std::string resource_api_version;  // "v1"
  std::string kind_suffix;           // "-batch-v1", "-rbac-v1", "-v1"

  std::string file_name() const { return resource_kind + kind_suffix + ".json"; }
};

SchemaNames schema_names(std::string_view api_version, std::string_view kind);

// A Kubernetes version as major.minor.patch numbers; "1.37", "v1.37.2" and "1.37.0" parse.
struct KubernetesVersion {
  int major = 0, minor = 0, patch = 0;
  auto operator<=>(const KubernetesVersion&) const = default;
  std::string to_string() const;  // "1.37.0"
};
bool parse_kubernetes_version(std::string_view text, KubernetesVersion& out);

// The first {{ name }} in a location template that kubeconform does not define
// ("{{ .Foo }}"); "" when all are known. kubeconform refuses such a location at start.
std::string unknown_template_variable(std::string_view pattern);

// Fills a kubeconform location template ({{.ResourceKind}}, {{ .Group }}, …).
std::string expand_location_template(std::string_view pattern, const SchemaNames& names,
                                     const KubernetesVersion& version, bool strict);

}  // namespace gkebuild::validate
