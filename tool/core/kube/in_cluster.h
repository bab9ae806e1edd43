// In-cluster configuration, as client-go's rest.InClusterConfig and kubectl read it:
// inside a pod, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT name the API
// server, and the service account's token, CA and namespace are mounted as files.
// It applies only where no kubeconfig file is found (kubeconfig.h decides).
#pragma once

#include <filesystem>

#include "tool/core/kube/kubeconfig.h"

namespace gkebuild::kube {

// Where the kubelet mounts a pod's service account (token, ca.crt, namespace).
inline constexpr const char* kServiceAccountDir = "/var/run/secrets/kubernetes.io/serviceaccount";

// Whether KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are both set.
bool in_cluster_environment();

// https://HOST:PORT with the CA from ca.crt, the token read from `token` whenever it
// changes (bound tokens are rotated by the kubelet), and the namespace from
// POD_NAMESPACE, else the `namespace` file, else "default". A missing token or CA
// is a SourceError naming the file. `service_account_dir` differs from the real one
// only in tests of the files' handling.
ClusterAccess in_cluster_access(const std::filesystem::path& service_account_dir = kServiceAccountDir);

}  // namespace gkebuild::kube
