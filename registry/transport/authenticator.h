// Authorization for one registry: none, Basic, or Bearer tokens fetched from
// the realm the registry names (Docker's token protocol), cached per scope
// set and refreshed when they expire or the registry refuses them.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "base/http_client.h"
#include "registry/transport/credential_source.h"
#include "registry/transport/www_authenticate.h"

namespace gkebuild::registry {

class Authenticator {
 public:
  // Sends one request (the session's connections, its errors), verifying TLS or not.
  using Send = std::function<HttpResponse(const HttpRequest& request, bool verify_tls)>;
  using Log = std::function<void(const std::string&)>;

  // `credentials`: asked in order, once, the first time the registry wants a login.
  Authenticator(std::string registry, CredentialSources credentials,
                std::function<bool(const std::string& host)> may_skip_tls, Send send,
                Log log);

  // Remembers how the registry asks for authentication (from GET /v2/ or a 401).
  void learn(const HttpResponse& unauthorized);

  // The Authorization header line for a request needing `scopes`, or "".
  std::string header_for(const std::vector<std::string>& scopes);

  // After a 401 to a request sent with `used` (a header_for() value): forgets
  // that token (unless another thread already replaced it) and adds the scope
  // the registry asked for. Throws a clear error when trying again cannot help.
  void refused(const HttpResponse& unauthorized, const std::string& used,
               std::vector<std::string>& scopes);

 private:
  struct Token {
    std::string value;
    std::chrono::steady_clock::time_point expires;
  };

  const std::optional<Credentials>& credentials();
  Token fetch_token(const std::vector<std::string>& scopes);
  std::string realm_checked();
  [[noreturn]] void fail_login(long status);

  std::string registry_;
  CredentialSources credential_sources_;
  std::function<bool(const std::string&)> may_skip_tls_;
  Send send_;
  Log log_;
  std::mutex mutex_;
  std::optional<Challenge> challenge_;
  bool credentials_loaded_ = false;
  std::optional<Credentials> credentials_;
  std::map<std::string, Token> tokens_;  // by the space-joined sorted scopes
};

}  // namespace gkebuild::registry
