// The credential a request carries, from the kubeconfig user: a static token or
// client certificate, a tokenFile read again whenever the file changes (the
// in-cluster service account token is one: the kubelet rotates it), or an exec
// plugin's answer cached in memory, shared by every thread of the process, until
// shortly before its expirationTimestamp or a 401 (client-go keeps it in memory
// too; nothing is cached across processes).
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "base/rfc3339.h"
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
  bool certificate_changed() const { return certificate_changed_; }
  int plugin_runs() const { return plugin_runs_.load(); }
  int token_file_reads() const { return token_file_reads_.load(); }

 private:
  // What identifies one version of the token file: a new file (the kubelet swaps a
  // symlink) or a rewrite changes it.
  struct FileStamp {
    dev_t device = 0;
    ino_t inode = 0;
    std::int64_t modified_ns = 0;
    off_t size = 0;
    bool operator==(const FileStamp&) const = default;
  };
  FileStamp token_file_stamp() const;
  void refresh_locked();
  bool stale_locked() const;

  ClusterConfig cluster_;
  UserConfig user_;
  std::mutex mutex_;
  std::optional<Credential> cached_;
  SystemClock::time_point renew_at_ = SystemClock::time_point::max();
  FileStamp read_stamp_;
  std::uint64_t generation_ = 0;
  std::atomic<bool> certificate_changed_{false};
  std::atomic<int> plugin_runs_{0};
  std::atomic<int> token_file_reads_{0};
};

}  // namespace gkebuild::kube
