// Cluster access as kubectl reads it: KUBECONFIG (several files merged by
// kubectl's rules) or --kubeconfig, a context, and the cluster and user it names.
#pragma once

#include <nlohmann/json.hpp>

#include "base/source_error.h"

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gkebuild::kube {

// A user's `exec` credential plugin (client.authentication.k8s.io v1 or v1beta1).
struct ExecConfig {
  std::string api_version;
  std::string command;  // as written; resolved when run
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> env;
  std::string install_hint;
  bool provide_cluster_info = false;
  std::string interactive_mode;     // Never | IfAvailable | Always
  std::filesystem::path base_dir;   // the kubeconfig's directory, for relative commands
  SourceLocation where;             // the exec entry, for messages
};

struct ClusterConfig {
  std::string name;
  std::string server;
  std::string ca_pem;  // from certificate-authority-data or the certificate-authority file
  bool insecure_skip_tls_verify = false;
  std::string tls_server_name;
  std::string proxy_url;  // http, https or socks5; may hold a password: never in messages
  nlohmann::json exec_extension;  // extensions[client.authentication.k8s.io/exec], or null
};

struct UserConfig {
  std::string name;
  std::string client_certificate_pem;
  std::string client_key_pem;
  std::string token;
  std::filesystem::path token_file;  // read when a request needs it (it may rotate)
  std::string username;
  std::string password;
  std::optional<ExecConfig> exec;
};

struct ClusterAccess {
  std::string context;
  std::string namespace_name = "default";
  ClusterConfig cluster;
  UserConfig user;
};

struct KubeconfigOptions {
  std::optional<std::filesystem::path> kubeconfig;  // --kubeconfig: only this file
  std::string context;                              // --context; empty = current-context
  std::string namespace_name;                       // --namespace; empty = the context's
};

// Which kubeconfig files apply: --kubeconfig, else KUBECONFIG's entries, else ~/.kube/config.
std::vector<std::filesystem::path> kubeconfig_files(const KubeconfigOptions& options);

// Loads, merges and resolves; inside a pod where no kubeconfig file exists (and no
// --kubeconfig or --context was given), the in-cluster config (in_cluster.h).
// Malformed files, a missing context, cluster or user, unreadable referenced files:
// SourceError naming file:line:col where there is one.
ClusterAccess load_cluster_access(const KubeconfigOptions& options);

}  // namespace gkebuild::kube
