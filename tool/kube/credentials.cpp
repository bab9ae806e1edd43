#include "kube/credentials.h"

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

CredentialSource::CredentialSource(ClusterConfig cluster, UserConfig user)
    : cluster_(std::move(cluster)), user_(std::move(user)) {}

bool CredentialSource::expired_locked() const {
  return cached_ && cached_->expires && SystemClock::now() >= *cached_->expires;
}

void CredentialSource::refresh_locked() {
  Credential fresh;
  if (user_.exec) {
    fresh = run_exec_plugin(*user_.exec, cluster_);
    ++plugin_runs_;
  } else if (!user_.token_file.empty()) {
    fresh.token = read_token_file(user_.token_file);
  }
  certificate_changed_ = cached_ && cached_->client_certificate_pem != fresh.client_certificate_pem;
  cached_ = std::move(fresh);
  ++generation_;
}

CredentialSource::Current CredentialSource::current() {
  std::lock_guard lock(mutex_);
  const bool dynamic = user_.exec || !user_.token_file.empty();
  if (dynamic && (!cached_ || expired_locked())) refresh_locked();
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
