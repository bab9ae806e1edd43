#include "kube/credentials.h"

#include <sys/stat.h>

#include "base/source_error.h"
#include "yamlfile/document.h"

namespace gkebuild::kube {
namespace {

std::string read_token_file(const std::filesystem::path& path) {
  std::string token = yamlfile::read_bounded(path, 1u << 20);
  while (!token.empty() && (token.back() == '\n' || token.back() == '\r' || token.back() == ' '))
    token.pop_back();
  return token;
}

}  // namespace

SystemClock::time_point renewal_time(SystemClock::time_point fetched, SystemClock::time_point expires) {
  if (expires <= fetched) return expires;
  return std::max(expires - kRenewBeforeExpiry, fetched + (expires - fetched) / 2);
}

CredentialSource::CredentialSource(ClusterConfig cluster, UserConfig user)
    : cluster_(std::move(cluster)), user_(std::move(user)) {}

CredentialSource::FileStamp CredentialSource::token_file_stamp() const {
  struct stat info {};
  if (::stat(user_.token_file.c_str(), &info) != 0) return {};  // read_token_file says why
  return {info.st_dev, info.st_ino,
          std::int64_t{info.st_mtim.tv_sec} * 1'000'000'000 + info.st_mtim.tv_nsec, info.st_size};
}

bool CredentialSource::stale_locked() const {
  if (!cached_) return true;
  if (user_.exec) return SystemClock::now() >= renew_at_;
  // A stat per request is cheap next to the request; reading only on change keeps a
  // rotated token from being used a minute late (client-go re-reads once a minute).
  return token_file_stamp() != read_stamp_;
}

void CredentialSource::refresh_locked() {
  Credential fresh;
  auto renew_at = SystemClock::time_point::max();
  if (user_.exec) {
    const auto fetched = SystemClock::now();
    fresh = run_exec_plugin(*user_.exec, cluster_);
    ++plugin_runs_;
    if (fresh.expires) renew_at = renewal_time(fetched, *fresh.expires);
  } else if (!user_.token_file.empty()) {
    read_stamp_ = token_file_stamp();  // before reading: a change meanwhile is read next time
    fresh.token = read_token_file(user_.token_file);
    ++token_file_reads_;
  }
  certificate_changed_ = cached_ && cached_->client_certificate_pem != fresh.client_certificate_pem;
  cached_ = std::move(fresh);
  renew_at_ = renew_at;
  ++generation_;
}

CredentialSource::Current CredentialSource::current() {
  std::lock_guard lock(mutex_);
  const bool dynamic = user_.exec || !user_.token_file.empty();
  if (dynamic && stale_locked()) refresh_locked();
  Current out;
  out.generation = generation_;
  out.auth.bearer_token = user_.token;
  out.auth.client_certificate_pem = user_.client_certificate_pem;
  out.auth.client_key_pem = user_.client_key_pem;
  out.auth.username = user_.username;
  out.auth.password = user_.password;
  if (cached_) {
    if (!cached_->token.empty()) out.auth.bearer_token = cached_->token;
    if (!cached_->client_certificate_pem.empty()) {
      out.auth.client_certificate_pem = cached_->client_certificate_pem;
      out.auth.client_key_pem = cached_->client_key_pem;
    }
  }
  return out;
}

bool CredentialSource::renew_after_unauthorized(std::uint64_t generation) {
  std::lock_guard lock(mutex_);
  if (!user_.exec && user_.token_file.empty()) return false;
  // Another thread may have renewed already; then retrying with that one is enough.
  if (generation != generation_) return true;
  refresh_locked();
  return true;
}

}  // namespace gkebuild::kube
