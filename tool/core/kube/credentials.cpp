#include "tool/core/kube/credentials.h"

#include <sys/stat.h>

#include <atomic>
#include <map>
#include <mutex>
#include <optional>

#include "base/source_error.h"
#include "tool/core/kube/credential_file.h"

namespace gkebuild::kube {
namespace {

std::string read_token_file(const std::filesystem::path& path) {
  std::string token = read_credential_file(path, kMaxTokenFileBytes);
  while (!token.empty() && (token.back() == '\n' || token.back() == '\r' || token.back() == ' '))
    token.pop_back();
  return token;
}

// What identifies one version of a token file: a new file (the kubelet swaps a
// symlink) or a rewrite changes it.
struct FileStamp {
  dev_t device = 0;
  ino_t inode = 0;
  std::int64_t modified_ns = 0;
  off_t size = 0;
  bool operator==(const FileStamp&) const = default;
};

FileStamp stamp_of(const std::filesystem::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return {};  // read_token_file says why
  return {info.st_dev, info.st_ino, std::int64_t{info.st_mtim.tv_sec} * 1'000'000'000 + info.st_mtim.tv_nsec,
          info.st_size};
}

// client-go's cache key: everything that makes the plugin answer differently.
std::string exec_key(const ExecConfig& exec, const ClusterConfig& cluster) {
  nlohmann::json key = {exec.api_version, exec.command, exec.args, exec.env, exec.base_dir.string(),
                        exec.interactive_mode, exec.provide_cluster_info};
  if (exec.provide_cluster_info)
    key.push_back({cluster.server, cluster.ca_pem, cluster.tls_server_name, cluster.insecure_skip_tls_verify,
                   cluster.proxy_url, cluster.exec_extension});
  return key.dump();
}

}  // namespace

// What the sources of one credential share.
struct CredentialSource::State {
  std::mutex mutex;
  std::optional<Credential> cached;
  SystemClock::time_point renew_at = SystemClock::time_point::max();
  FileStamp read_stamp;
  std::uint64_t generation = 0;
  std::atomic<bool> certificate_changed{false};
  std::atomic<int> plugin_runs{0};
  std::atomic<int> token_file_reads{0};
};

SystemClock::time_point renewal_time(SystemClock::time_point fetched, SystemClock::time_point expires) {
  if (expires <= fetched) return expires;
  return std::max(expires - kRenewBeforeExpiry, fetched + (expires - fetched) / 2);
}

CredentialSource::CredentialSource(ClusterConfig cluster, UserConfig user)
    : cluster_(std::move(cluster)), user_(std::move(user)) {
  state_ = user_.exec ? exec_state(exec_key(*user_.exec, cluster_)) : std::make_shared<State>();
}

std::shared_ptr<CredentialSource::State> CredentialSource::exec_state(const std::string& key) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<State>> states;
  std::lock_guard lock(mutex);
  auto& state = states[key];
  if (!state) state = std::make_shared<State>();
  return state;
}

bool CredentialSource::certificate_changed() const { return state_->certificate_changed; }
int CredentialSource::plugin_runs() const { return state_->plugin_runs; }
int CredentialSource::token_file_reads() const { return state_->token_file_reads; }

bool CredentialSource::stale_locked() const {
  if (!state_->cached) return true;
  if (user_.exec) return SystemClock::now() >= state_->renew_at;
  // A stat per request is cheap next to the request; reading only on change keeps a
  // rotated token from being used a minute late (client-go re-reads once a minute).
  return stamp_of(user_.token_file) != state_->read_stamp;
}

void CredentialSource::refresh_locked() {
  State& state = *state_;
  Credential fresh;
  auto renew_at = SystemClock::time_point::max();
  if (user_.exec) {
    const auto fetched = SystemClock::now();
    fresh = run_exec_plugin(*user_.exec, cluster_);
    ++state.plugin_runs;
    if (fresh.expires) renew_at = renewal_time(fetched, *fresh.expires);
  } else if (!user_.token_file.empty()) {
    state.read_stamp = stamp_of(user_.token_file);  // before reading: a change meanwhile is read next time
    fresh.token = read_token_file(user_.token_file);
    ++state.token_file_reads;
  }
  state.certificate_changed = state.cached && state.cached->client_certificate_pem != fresh.client_certificate_pem;
  state.cached = std::move(fresh);
  state.renew_at = renew_at;
  ++state.generation;
}

CredentialSource::Current CredentialSource::current() {
  std::lock_guard lock(state_->mutex);
  const bool dynamic = user_.exec || !user_.token_file.empty();
  if (dynamic && stale_locked()) refresh_locked();
  Current out;
  out.generation = state_->generation;
  out.auth.bearer_token = user_.token;
  out.auth.client_certificate_pem = user_.client_certificate_pem;
  out.auth.client_key_pem = user_.client_key_pem;
  out.auth.username = user_.username;
  out.auth.password = user_.password;
  if (const auto& cached = state_->cached) {
    if (!cached->token.empty()) out.auth.bearer_token = cached->token;
    if (!cached->client_certificate_pem.empty()) {
      out.auth.client_certificate_pem = cached->client_certificate_pem;
      out.auth.client_key_pem = cached->client_key_pem;
    }
  }
  return out;
}

bool CredentialSource::renew_after_unauthorized(std::uint64_t generation) {
  std::lock_guard lock(state_->mutex);
  if (!user_.exec && user_.token_file.empty()) return false;
  // Another thread or client may have renewed already; then retrying with that one is enough.
  if (generation != state_->generation) return true;
  refresh_locked();
  return true;
}

}  // namespace gkebuild::kube
