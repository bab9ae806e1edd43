#include "registry/transport/authenticator.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "base/base64.h"
#include "registry/transport/errors.h"

namespace gkebuild::registry {
namespace {

// Tokens are renewed a little before they run out, so none expires in flight.
constexpr auto kExpiryMargin = std::chrono::seconds(10);
// The token spec's default lifetime when a response gives none.
constexpr int kDefaultTokenSeconds = 60;

std::string scope_key(std::vector<std::string> scopes) {
  std::sort(scopes.begin(), scopes.end());
  scopes.erase(std::unique(scopes.begin(), scopes.end()), scopes.end());
  std::string key;
  for (const auto& s : scopes) key += (key.empty() ? "" : " ") + s;
  return key;
}

std::string host_of(const std::string& url) {
  auto origin = origin_of(url);
  auto scheme = origin.find("://");
  return scheme == std::string::npos ? origin : origin.substr(scheme + 3);
}

}  // namespace

Authenticator::Authenticator(std::string registry, CredentialSources sources,
                             std::function<bool(const std::string&)> may_skip_tls,
                             Send send, Log log)
    : registry_(std::move(registry)),
      credential_sources_(std::move(sources)),
      may_skip_tls_(std::move(may_skip_tls)),
      send_(std::move(send)),
      log_(std::move(log)) {}

void Authenticator::learn(const HttpResponse& unauthorized) {
  auto values = unauthorized.all("www-authenticate");
  std::lock_guard lock(mutex_);
  if (auto bearer = find_challenge(values, "bearer"))
    challenge_ = bearer;
  else if (auto basic = find_challenge(values, "basic"))
    challenge_ = basic;
}

const std::optional<Credentials>& Authenticator::credentials() {
  if (!credentials_loaded_) {
    credentials_ = find_credentials(registry_, credential_sources_);
    credentials_loaded_ = true;
  }
  return credentials_;
}

std::string Authenticator::header_for(const std::vector<std::string>& scopes) {
  std::lock_guard lock(mutex_);
  if (!challenge_) return "";
  if (challenge_->scheme == "basic") {
    const auto& c = credentials();
    if (!c || c->username.empty()) return "";
    return "Authorization: Basic " + base64_encode(c->username + ":" + c->password);
  }
  auto key = scope_key(scopes);
  auto it = tokens_.find(key);
  if (it == tokens_.end() || std::chrono::steady_clock::now() >= it->second.expires)
    it = tokens_.insert_or_assign(key, fetch_token(scopes)).first;
  return "Authorization: Bearer " + it->second.value;
}

void Authenticator::refused(const HttpResponse& unauthorized, const std::string& used,
                            std::vector<std::string>& scopes) {
  learn(unauthorized);
  std::lock_guard lock(mutex_);
  if (!challenge_)
    throw RegistryError(ErrorKind::kRemote, registry_ + " answered 401 without saying how to log in");
  if (challenge_->scheme == "basic") {
    const auto& c = credentials();
    if (!c)
      throw RegistryError(ErrorKind::kRemote,
                          registry_ + " requires a login and no credentials were found for it "
                                      "(docker login, or credHelpers in config.json)");
    fail_login(401);
  }
  if (auto it = tokens_.find(scope_key(scopes));
      it != tokens_.end() && "Authorization: Bearer " + it->second.value == used)
    tokens_.erase(it);
  // Some registries read only the first scope: the one just asked for goes first.
  if (auto asked = challenge_->param("scope"); !asked.empty()) {
    std::vector<std::string> merged;
    size_t start = 0;
    while (start <= asked.size()) {
      auto space = asked.find(' ', start);
      merged.push_back(asked.substr(start, space == std::string::npos ? std::string::npos : space - start));
      if (space == std::string::npos) break;
      start = space + 1;
    }
    for (auto& s : scopes)
      if (std::find(merged.begin(), merged.end(), s) == merged.end()) merged.push_back(s);
    scopes = merged;
  }
}

void Authenticator::fail_login(long status) {
  std::string why = credentials() ? "the credentials were refused"
                                  : "no credentials were found for it (docker login, or "
                                    "credHelpers in config.json)";
  throw RegistryError(ErrorKind::kRemote, "login to " + registry_ + " failed (HTTP " +
                                              std::to_string(status) + "): " + why);
}

// The realm gets the user's password: it must be https, unless the user
// trusts its host (loopback, or named insecure).
std::string Authenticator::realm_checked() {
  std::string realm = challenge_->param("realm");
  if (realm.empty())
    throw RegistryError(ErrorKind::kRemote, registry_ + " asked for a token without naming a realm");
  bool https = realm.starts_with("https://");
  bool http = realm.starts_with("http://");
  if (!https && !(http && may_skip_tls_(host_of(realm))))
    throw RegistryError(ErrorKind::kRemote, registry_ + " named a token realm that is not https: " +
                                                origin_of(realm));
  return realm;
}

Authenticator::Token Authenticator::fetch_token(const std::vector<std::string>& scopes) {
  std::string realm = realm_checked();
  std::string service = challenge_->param("service");
  const auto& c = credentials();
  HttpRequest request;
  if (c && !c->identity_token.empty()) {
    std::string scope_list;
    for (const auto& s : scopes) scope_list += (scope_list.empty() ? "" : " ") + s;
    request.method = "POST";
    request.url = realm;
    request.headers.push_back("Content-Type: application/x-www-form-urlencoded");
    request.body = "grant_type=refresh_token&client_id=gkebuild&service=" + percent_encode(service) +
                   "&scope=" + percent_encode(scope_list) + "&refresh_token=" + percent_encode(c->identity_token);
  } else {
    request.url = realm + (realm.find('?') == std::string::npos ? "?" : "&") +
                  "service=" + percent_encode(service);
    for (const auto& s : scopes) request.url += "&scope=" + percent_encode(s);
    if (c && !c->username.empty())
      request.headers.push_back("Authorization: Basic " + base64_encode(c->username + ":" + c->password));
  }
  if (log_) log_("> " + request.method + " " + without_query(request.url) + " (token)");
  auto response = send_(request, !may_skip_tls_(host_of(realm)));
  if (log_) log_("< " + std::to_string(response.status));
  if (response.status == 401 || response.status == 403) fail_login(response.status);
  if (response.status != 200)
    throw RegistryError(response.status >= 500 ? ErrorKind::kRetryable : ErrorKind::kRemote,
                        "the token service of " + registry_ + " answered HTTP " +
                            std::to_string(response.status));
  auto body = nlohmann::json::parse(response.body, nullptr, false);
  std::string token;
  for (const char* key : {"token", "access_token"})
    if (token.empty() && body.is_object() && body.contains(key) && body[key].is_string())
      token = body[key].get<std::string>();
  if (token.empty())
    throw RegistryError(ErrorKind::kRemote, "the token service of " + registry_ +
                                                " answered without a token");
  int seconds = body.contains("expires_in") && body["expires_in"].is_number_integer()
                    ? body["expires_in"].get<int>()
                    : kDefaultTokenSeconds;
  if (seconds <= 0) seconds = kDefaultTokenSeconds;
  auto lifetime = std::chrono::seconds(seconds);
  auto expires = std::chrono::steady_clock::now() + lifetime -
                 std::min<std::chrono::seconds>(kExpiryMargin, lifetime / 2);
  return {token, expires};
}

}  // namespace gkebuild::registry
