#include "tool/core/kube/in_cluster.h"

#include <cstdlib>
#include <string>

#include "base/source_error.h"
#include "tool/core/kube/credential_file.h"

namespace gkebuild::kube {
namespace {

namespace fs = std::filesystem;

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

// A file every pod with a service account has; its absence is explained.
std::string required_file(const fs::path& path, const std::string& what, std::size_t max_bytes) {
  std::error_code error;
  if (!fs::exists(path, error))
    throw SourceError({path.string()},
                      "in-cluster config: KUBERNETES_SERVICE_HOST is set and no kubeconfig was found (KUBECONFIG, "
                      "~/.kube/config), but the pod's service account " + what + " is missing (is "
                      "automountServiceAccountToken false for this pod?)");
  return read_credential_file(path, max_bytes);
}

}  // namespace

bool in_cluster_environment() {
  return !environment("KUBERNETES_SERVICE_HOST").empty() && !environment("KUBERNETES_SERVICE_PORT").empty();
}

ClusterAccess in_cluster_access(const fs::path& service_account_dir) {
  const std::string host = environment("KUBERNETES_SERVICE_HOST");
  const std::string port = environment("KUBERNETES_SERVICE_PORT");
  ClusterAccess access;
  access.context = "in-cluster";
  access.cluster.name = "in-cluster";
  // net.JoinHostPort: an IPv6 address goes in brackets.
  const bool ipv6 = host.find(':') != std::string::npos && !host.starts_with('[');
  access.cluster.server = "https://" + (ipv6 ? "[" + host + "]" : host) + ":" + port;
  access.cluster.ca_pem = required_file(service_account_dir / "ca.crt", "CA certificate", kMaxCaFileBytes);
  access.user.name = "in-cluster";
  // Read now so that a missing token is found before anything is built; read again
  // by CredentialSource whenever the kubelet replaces it.
  access.user.token_file = service_account_dir / "token";
  if (trimmed(required_file(access.user.token_file, "token", kMaxTokenFileBytes)).empty())
    throw SourceError({access.user.token_file.string()}, "in-cluster config: the service account token is empty");
  access.namespace_name = environment("POD_NAMESPACE");
  if (access.namespace_name.empty()) {
    std::error_code error;
    if (fs::exists(service_account_dir / "namespace", error))
      access.namespace_name = trimmed(read_credential_file(service_account_dir / "namespace", 4096));
  }
  if (access.namespace_name.empty()) access.namespace_name = "default";
  return access;
}

}  // namespace gkebuild::kube
