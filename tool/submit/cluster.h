// Cluster access for submit and the follow-up commands: the kubeconfig as kubectl reads
// it, checked before anything is built or applied (a missing exec plugin is found now,
// not at the first request), and the run id the run's objects are labelled with.
#pragma once

#include <optional>
#include <string>

#include "tool/core/kube/kubeconfig.h"

namespace gkebuild::submit {

// Loads and checks; every problem is a SourceError (exit 2). `context` empty: the
// kubeconfig's current-context.
kube::ClusterAccess cluster_access(kube::KubeconfigOptions options, const std::string& context);

// Whether any kubeconfig file exists, or the in-cluster config applies (a --dry-run
// without either prints only).
bool has_kubeconfig(const kube::KubeconfigOptions& options);

// The gkebuild.io/run label value of a run record name: the name itself when it is a
// valid run id, else a shortened form with a hash of it.
std::string cluster_run_id(const std::string& record_name);

}  // namespace gkebuild::submit
