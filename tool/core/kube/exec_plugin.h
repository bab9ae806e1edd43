// The client-go exec credential protocol: run the user's plugin with
// KUBERNETES_EXEC_INFO and read the ExecCredential it prints.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "base/rfc3339.h"
#include "tool/core/kube/kubeconfig.h"

namespace gkebuild::kube {

struct Credential {
  std::string token;
  std::string client_certificate_pem;
  std::string client_key_pem;
  std::optional<SystemClock::time_point> expires;  // none: valid until a 401
};

// Where `exec.command` runs from: a path with a slash relative to the kubeconfig's
// directory, a bare name on PATH; nullopt when it is not there.
std::optional<std::filesystem::path> resolve_exec_command(const ExecConfig& exec);

// Runs the plugin once. A missing command (with its installHint), a failing plugin
// or output that is not a matching ExecCredential throw SourceError at the exec
// entry. The plugin's stdout is never quoted in messages: it holds the secret.
Credential run_exec_plugin(const ExecConfig& exec, const ClusterConfig& cluster);

}  // namespace gkebuild::kube
