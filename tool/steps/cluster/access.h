// Cluster access for `cluster check`, submit and the follow-up commands: the kubeconfig as
// kubectl reads it, checked before anything is built or applied (a missing exec plugin is
// found now, not at the first request).
#pragma once

#include <string>

#include "tool/core/kube/kubeconfig.h"

namespace gkebuild::cluster {

// Loads and checks; every problem is a SourceError (exit 2). `context` empty: the
// kubeconfig's current-context.
kube::ClusterAccess cluster_access(kube::KubeconfigOptions options, const std::string& context);

// Whether any kubeconfig file exists, or the in-cluster config applies (a --dry-run
// without either prints only).
bool has_kubeconfig(const kube::KubeconfigOptions& options);

}  // namespace gkebuild::cluster
