#include "tool/steps/cluster/access.h"

#include <filesystem>

#include "base/printable.h"
#include "base/source_error.h"
#include "tool/core/kube/exec_plugin.h"
#include "tool/core/kube/in_cluster.h"

namespace gkebuild::cluster {
namespace {

bool kubeconfig_exists(const kube::KubeconfigOptions& options) {
  for (const auto& file : kube::kubeconfig_files(options))
    if (std::filesystem::exists(file)) return true;
  return false;
}

}  // namespace

kube::ClusterAccess cluster_access(kube::KubeconfigOptions options, const std::string& context) {
  // The project's context names a kubeconfig entry; without any kubeconfig, in a pod,
  // the in-cluster config applies instead (an explicit --context still wants a kubeconfig).
  if (options.context.empty() && kubeconfig_exists(options)) options.context = context;
  kube::ClusterAccess access = kube::load_cluster_access(options);
  if (access.user.exec && !kube::resolve_exec_command(*access.user.exec)) {
    const auto& exec = *access.user.exec;
    std::string message = "exec credential plugin " + in_quotes(exec.command) + " of context '" + access.context +
                          "' not found" + (exec.command.find('/') != std::string::npos ? "" : " on PATH");
    if (!exec.install_hint.empty()) message += "\n" + exec.install_hint;
    throw SourceError(exec.where, message);
  }
  return access;
}

bool has_kubeconfig(const kube::KubeconfigOptions& options) {
  return kubeconfig_exists(options) || (!options.kubeconfig && kube::in_cluster_environment());
}

}  // namespace gkebuild::cluster
