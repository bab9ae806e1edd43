#include "registry/transport/session.h"

#include <algorithm>
#include <mutex>

#include "registry/transport/authenticator.h"
#include "registry/transport/credentials.h"
#include "registry/transport/errors.h"
#include "registry/transport/reference.h"

namespace gkebuild::registry {
namespace {

constexpr int kMaxRedirects = 5;

// A redirect goes to http or https only, and never from https down to plain
// http: a registry must not turn gkebuild into a client of other protocols
// (SSRF), nor strip TLS from what follows.
void check_redirect(const std::string& registry, const std::string& from, const std::string& to) {
  const auto scheme = scheme_of(to);
  const bool allowed = scheme == "https" || (scheme == "http" && scheme_of(from) != "https");
  if (!allowed)
    throw RegistryError(ErrorKind::kRemote, registry + " redirected to " + origin_of(to) +
                                                ", which gkebuild refuses: only http and https are followed, "
                                                "never from https to http");
}

bool is_redirect(long status) {
  return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

// The one place where the HTTP client's failures become registry errors. A TLS
// handshake that fails (wrong protocol, untrusted certificate) fails the same way
// next time, and so does an unknown host; a dropped connection is worth another try.
HttpResponse send_over(HttpClient& client, const HttpRequest& request) {
  try {
    return client.send(request);
  } catch (const HttpError& e) {
    using Failure = HttpError::Failure;
    const auto kind = e.failure() == Failure::kDropped ? ErrorKind::kRetryable : ErrorKind::kRemote;
    throw TransportError(kind, e.what(), e.failure() == Failure::kTlsHandshake);
  }
}

// Small requests stall briefly; blob transfers and the wait for the answer to an
// upload set their own limits per request (SessionTimeouts).
HttpClientOptions client_options(bool verify, const SessionOptions& options) {
  return {.tls = {.verify = verify, .ca_file = options.ca_file},
          .timeouts = {.connect_seconds = options.timeouts.connect_seconds,
                       .stall_seconds = options.timeouts.request_stall_seconds}};
}

}  // namespace

std::string repository_scope(const std::string& repository, const std::string& actions) {
  return "repository:" + repository + ":" + actions;
}

struct Session::State {
  std::string registry;
  SessionOptions options;
  std::once_flag pinged;
  std::string base;  // "https://host:port" once the endpoint is known
  bool verify_tls = true;
  std::unique_ptr<HttpClient> verifying, unverified;  // both shared by every thread
  std::unique_ptr<Authenticator> auth;

  // Loopback registries may skip TLS verification as Docker allows, unless the
  // user gave a CA to verify with; other hosts only when named insecure.
  bool may_skip_tls(const std::string& host) const {
    auto& insecure = options.insecure_registries;
    return (is_loopback_host(host) && options.ca_file.empty()) ||
           std::find(insecure.begin(), insecure.end(), host) != insecure.end();
  }

  HttpResponse send_once(const HttpRequest& request, bool verify) {
    return send_over(verify ? *verifying : *unverified, request);
  }

  void log(const std::string& line) const {
    if (options.log) options.log(line);
  }

  void ping();
  bool verify_for(const std::string& url) const;
  static std::string redirect_target(const std::string& from, const std::string& location);
  HttpResponse send_following(HttpRequest request, const std::string& authorization);
  HttpResponse ping_once(const std::string& base, bool verify);
};

HttpResponse Session::State::ping_once(const std::string& candidate, bool verify) {
  HttpRequest request;
  request.url = candidate + "/v2/";
  log("> GET " + request.url);
  auto response = send_once(request, verify);
  log("< " + std::to_string(response.status));
  return response;
}

// Docker's rule: https with verification; for insecure registries https
// without verification first, then plain http when TLS itself fails.
void Session::State::ping() {
  bool insecure = may_skip_tls(registry);
  std::vector<std::pair<std::string, bool>> candidates{{"https://" + registry, !insecure}};
  if (insecure) candidates.emplace_back("http://" + registry, false);
  HttpResponse response;
  for (size_t i = 0; i < candidates.size(); ++i) {
    try {
      with_retries(options.retry, options.log,
                   [&] { response = ping_once(candidates[i].first, candidates[i].second); });
    } catch (const TransportError& e) {
      if (!e.tls_handshake() || i + 1 == candidates.size()) throw;
      continue;
    }
    base = candidates[i].first;
    verify_tls = candidates[i].second;
    break;
  }
  if (response.status == 401) {
    auth->learn(response);
  } else if (response.status != 200) {
    throw RegistryError(ErrorKind::kRemote, registry + " does not look like an OCI registry (GET /v2/ answered HTTP " +
                                                std::to_string(response.status) + ")");
  }
}

Session::Session(std::string registry, SessionOptions options) : state_(std::make_unique<State>()) {
  state_->registry = std::move(registry);
  state_->options = std::move(options);
  if (state_->options.credential_sources.empty())
    state_->options.credential_sources = state_->options.credential_files.empty()
                                             ? default_credential_sources()
                                             : file_sources(state_->options.credential_files);
  state_->verifying = std::make_unique<HttpClient>(client_options(true, state_->options));
  state_->unverified = std::make_unique<HttpClient>(client_options(false, state_->options));
  State* s = state_.get();
  state_->auth = std::make_unique<Authenticator>(
      s->registry, s->options.credential_sources,
      [s](const std::string& host) { return s->may_skip_tls(host); },
      [s](const HttpRequest& request, bool verify) { return s->send_once(request, verify); }, s->options.log);
}

Session::~Session() = default;

const std::string& Session::registry() const { return state_->registry; }
const SessionOptions& Session::options() const { return state_->options; }

std::string Session::resolve(const std::string& location) const {
  if (location.find("://") != std::string::npos) return location;
  if (location.starts_with("/")) return state_->base + location;
  return state_->base + "/" + location;
}

// The TLS verification for `url`: the registry's own choice at its origin,
// and for other hosts (token realms, blob storage) verification unless trusted.
bool Session::State::verify_for(const std::string& url) const {
  auto origin = origin_of(url);
  if (origin == base) return verify_tls;
  return !may_skip_tls(origin.substr(origin.find("://") + 3));
}

std::string Session::State::redirect_target(const std::string& from, const std::string& location) {
  if (location.find("://") != std::string::npos) return location;
  if (location.starts_with("/")) return origin_of(from) + location;
  auto path = without_query(from);
  return path.substr(0, path.rfind('/') + 1) + location;
}

HttpResponse Session::State::send_following(HttpRequest request, const std::string& authorization) {
  const auto base_headers = request.headers;
  for (int hop = 0;; ++hop) {
    request.headers = base_headers;
    // The Authorization header goes only to the registry's own origin, never
    // along a redirect to another host (blob storage, a CDN, an attacker).
    if (!authorization.empty() && origin_of(request.url) == base)
      request.headers.push_back(authorization);
    log("> " + request.method + " " + without_query(request.url));
    auto response = send_once(request, verify_for(request.url));
    log("< " + std::to_string(response.status));
    auto location = response.header("location");
    if (!is_redirect(response.status) || location.empty()) return response;
    if (hop >= kMaxRedirects)
      throw RegistryError(ErrorKind::kRemote, registry + " redirected too many times");
    if (request.upload)
      throw RegistryError(ErrorKind::kRemote, registry + " redirected an upload");
    const auto target = redirect_target(request.url, location);
    check_redirect(registry, request.url, target);
    request.url = target;
    if (response.status == 303) {
      request.method = "GET";
      request.body.clear();
    }
  }
}

HttpResponse Session::send(HttpRequest request, const std::vector<std::string>& scopes_in) {
  std::call_once(state_->pinged, [this] { state_->ping(); });
  auto scopes = scopes_in;
  request.url = resolve(request.url);
  auto used = state_->auth->header_for(scopes);
  auto response = state_->send_following(request, used);
  if (response.status != 401) return response;
  state_->auth->refused(response, used, scopes);  // throws when another try cannot help
  // A streamed body is gone: the caller starts that upload again, with the new token.
  if (request.upload)
    throw RegistryError(ErrorKind::kRetryable, state_->registry + " refused the token during an upload");
  response = state_->send_following(request, state_->auth->header_for(scopes));
  if (response.status == 401)
    throw RegistryError(ErrorKind::kRemote, "login to " + state_->registry +
                                                " failed: the registry refused the token it was given");
  return response;
}

}  // namespace gkebuild::registry
