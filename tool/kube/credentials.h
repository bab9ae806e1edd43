// The credential a request carries, from the kubeconfig user: a static token or
// client certificate, a tokenFile read when needed, or an exec plugin's answer
// cached until its expirationTimestamp or a 401.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>

#include <string>

#include "kube/exec_plugin.h"
#include "kube/kubeconfig.h"

namespace gkebuild::kube {

// Who a request is from; every field may be empty.
struct HttpAuth {
  std::string bearer_token;
  std::string client_certificate_pem;
  std::string client_key_pem;
  std::string username;
  std::string password;
};

class CredentialSource {
 public:
  CredentialSource(ClusterConfig cluster, UserConfig user);

  struct Current {
    HttpAuth auth;
    std::uint64_t generation = 0;  // changes whenever the credential is renewed
  };
  Current current();

  // After a 401 to a request made with `generation`: renews the credential when
  // that can help (the exec plugin runs again, the tokenFile is read again) and
  // says whether a retry is worth it.
  bool renew_after_unauthorized(std::uint64_t generation);

  // Whether the last renewal changed the client certificate (pooled TLS must go).
  bool certificate_changed() const { return certificate_changed_; }
  int plugin_runs() const { return plugin_runs_; }

 private:
  void refresh_locked();
  bool expired_locked() const;

  ClusterConfig cluster_;
  UserConfig user_;
  std::mutex mutex_;
  std::optional<Credential> cached_;
  std::uint64_t generation_ = 0;
  bool certificate_changed_ = false;
  int plugin_runs_ = 0;
};

}  // namespace gkebuild::kube
