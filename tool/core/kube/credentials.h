// The credential a request carries, from the kubeconfig user: a static token or
// client certificate, a tokenFile read again whenever the file changes (the
// in-cluster service account token is one: the kubelet rotates it), or an exec
// plugin's answer cached in memory until shortly before its expirationTimestamp or a
// 401. As in client-go, that answer is shared by every client and thread of the
// process with the same exec entry and cluster, and by nothing outside the process.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "base/rfc3339.h"
#include "tool/core/kube/exec_plugin.h"
#include "tool/core/kube/kubeconfig.h"

namespace gkebuild::kube {

// Who a request is from; every field may be empty.
struct HttpAuth {
  std::string bearer_token;
  std::string client_certificate_pem;
  std::string client_key_pem;
  std::string username;
  std::string password;
};

// How long before its expiry a credential is renewed.
inline constexpr std::chrono::seconds kRenewBeforeExpiry{10};

// When a credential fetched at `fetched` that expires at `expires` is renewed:
// kRenewBeforeExpiry early, so that no request leaves with a token that lapses on the
// way, but never in the first half of its life, so that a plugin that hands out very
// short-lived tokens does not run for every request.
SystemClock::time_point renewal_time(SystemClock::time_point fetched, SystemClock::time_point expires);

class CredentialSource {
 public:
  CredentialSource(ClusterConfig cluster, UserConfig user);

  struct Current {
    HttpAuth auth;
    std::uint64_t generation = 0;  // changes whenever the credential is renewed
  };
  // Safe from several threads: one of them runs the plugin, the others wait for its answer.
  Current current();

  // After a 401 to a request made with `generation`: renews the credential when
  // that can help (the exec plugin runs again, the tokenFile is read again) and
  // says whether a retry is worth it.
  bool renew_after_unauthorized(std::uint64_t generation);

  // Whether the last renewal changed the client certificate (pooled TLS must go).
  bool certificate_changed() const;
  // Runs of the plugin for every source that shares its credential, and reads of the token file.
  int plugin_runs() const;
  int token_file_reads() const;

 private:
  struct State;
  // The process's state for one exec entry and cluster, kept for its lifetime (client-go's global cache).
  static std::shared_ptr<State> exec_state(const std::string& key);
  bool stale_locked() const;
  void refresh_locked();

  ClusterConfig cluster_;
  UserConfig user_;
  std::shared_ptr<State> state_;
};

}  // namespace gkebuild::kube
