#include "base/http_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <exception>
#include <mutex>

#include "base/version.h"

namespace gkebuild {
namespace {

const char* user_agent() {
  static const std::string agent = std::string("gkebuild/") + kVersion;
  return agent.c_str();
}

constexpr long kMaxRedirects = 5;

void global_init() {
  static const bool initialised = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
  if (!initialised) throw std::runtime_error("libcurl could not be initialised");
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::string describe_size(uint64_t bytes) {
  constexpr uint64_t kMiB = 1 << 20;
  if (bytes >= kMiB && bytes % kMiB == 0) return std::to_string(bytes / kMiB) + " MiB";
  return std::to_string(bytes) + " bytes";
}

// Watches a transfer's progress against its stall limit, and the server's
// thinking time after an upload against answer_wait_seconds.
class StallWatch {
 public:
  using Clock = std::chrono::steady_clock;
  StallWatch(StallLimit limit, const HttpRequest& request)
      : limit_(limit), answer_wait_(request.answer_wait_seconds),
        upload_size_(request.upload ? request.upload_size : request.body.size()) {}

  // False once the transfer counts as stalled; then reason() says why.
  bool on_progress(uint64_t moved, uint64_t uploaded, bool answer_started) {
    const auto now = Clock::now();
    const bool thinking = answer_wait_ > 0 && uploaded >= upload_size_ && !answer_started;
    // Each phase is timed from its start; at 1 byte/s any byte moved restarts the clock.
    if (thinking != thinking_ || (limit_.bytes_per_second <= 1 && moved != moved_at_start_)) restart(now, moved);
    thinking_ = thinking;
    const auto elapsed = std::chrono::duration_cast<std::chrono::seconds>(now - window_start_).count();
    if (thinking) {
      if (elapsed < answer_wait_) return true;
      reason_ = "no answer " + std::to_string(answer_wait_) + " s after the request was sent";
      return false;
    }
    if (limit_.seconds <= 0 || elapsed < limit_.seconds) return true;
    const uint64_t wanted = static_cast<uint64_t>(limit_.bytes_per_second) * static_cast<uint64_t>(limit_.seconds);
    if (moved - moved_at_start_ >= wanted) {  // fast enough over this window: watch the next one
      restart(now, moved);
      return true;
    }
    reason_ = limit_.bytes_per_second <= 1
                  ? "no byte moved for " + std::to_string(limit_.seconds) + " s"
                  : "fewer than " + std::to_string(limit_.bytes_per_second) + " bytes/s moved for " +
                        std::to_string(limit_.seconds) + " s";
    return false;
  }
  const std::string& reason() const { return reason_; }

 private:
  void restart(Clock::time_point now, uint64_t moved) {
    window_start_ = now;
    moved_at_start_ = moved;
  }

  StallLimit limit_;
  long answer_wait_;
  uint64_t upload_size_;
  Clock::time_point window_start_ = Clock::now();
  uint64_t moved_at_start_ = 0;
  bool thinking_ = false;
  std::string reason_;
};

struct Transfer {
  const HttpRequest& request;
  HttpResponse& response;
  CURL* curl;
  StallWatch stall;
  bool answer_started = false;  // a status line arrived
  uint64_t body_bytes = 0;  // of the current answer (a redirect or 100 starts another)
  uint64_t limit_passed = 0;  // the body limit the answer went past, 0 when none
  bool stopped = false;
  bool stalled = false;  // by the stall watch
  // What a caller's callback threw: kept until libcurl has returned, because an
  // exception must not unwind through C frames.
  std::exception_ptr thrown;

  bool success() const {
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    return status >= 200 && status < 300;
  }
};

size_t on_header(char* data, size_t size, size_t count, void* user) {
  auto& t = *static_cast<Transfer*>(user);
  std::string_view line(data, size * count);
  if (line.starts_with("HTTP/")) {  // a new answer (100, a followed redirect)
    t.answer_started = true;
    t.response.headers.clear();
    t.response.body.clear();
    t.body_bytes = 0;
  }
  const auto colon = line.find(':');
  if (colon == std::string_view::npos) return line.size();
  auto value = line.substr(colon + 1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' '))
    value.remove_suffix(1);
  t.response.headers.emplace(lower(std::string(line.substr(0, colon))), std::string(value));
  return line.size();
}

size_t on_body(char* data, size_t size, size_t count, void* user) {
  auto& t = *static_cast<Transfer*>(user);
  const std::string_view chunk(data, size * count);
  const bool to_sink = t.request.sink && t.success();
  // An error body kept in memory is bounded even when the caller streams large bodies.
  const bool error_of_stream = t.request.sink && !to_sink;
  const uint64_t limit = error_of_stream ? std::min(t.request.body_limit, kDefaultBodyLimit) : t.request.body_limit;
  t.body_bytes += chunk.size();
  if (t.body_bytes > limit) {
    t.limit_passed = limit;
    return 0;  // aborts the transfer
  }
  if (!to_sink) {
    t.response.body.append(chunk);
    return chunk.size();
  }
  try {
    if (t.request.sink(chunk)) return chunk.size();
    t.stopped = true;
  } catch (...) {
    t.thrown = std::current_exception();
  }
  return 0;
}

size_t on_read(char* buffer, size_t size, size_t count, void* user) {
  auto& t = *static_cast<Transfer*>(user);
  try {
    const size_t n = t.request.upload(buffer, size * count);
    t.response.bytes_sent += n;
    if (t.request.on_sent) t.request.on_sent(t.response.bytes_sent);
    return n;
  } catch (...) {
    t.thrown = std::current_exception();
    return CURL_READFUNC_ABORT;
  }
}

// libcurl calls this at least once a second, also while a stream is silent.
int on_progress(void* user, curl_off_t, curl_off_t downloaded, curl_off_t, curl_off_t uploaded) {
  auto& t = *static_cast<Transfer*>(user);
  if (t.request.cancel && t.request.cancel->load()) {
    t.stopped = true;
    return 1;  // aborts the transfer
  }
  const auto moved = static_cast<uint64_t>(downloaded + uploaded);
  if (t.stall.on_progress(moved, static_cast<uint64_t>(uploaded), t.answer_started)) return 0;
  t.stalled = true;
  return 1;
}

void set_blob(CURL* curl, CURLoption option, const std::string& pem) {
  curl_blob blob{const_cast<char*>(pem.data()), pem.size(), CURL_BLOB_COPY};
  curl_easy_setopt(curl, option, &blob);
}

void set_tls(CURL* curl, const TlsOptions& tls, const ClientCertificate& identity) {
  curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, tls.verify ? 1L : 0L);
  curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, tls.verify ? 2L : 0L);
  if (!tls.ca_file.empty()) curl_easy_setopt(curl, CURLOPT_CAINFO, tls.ca_file.c_str());
  if (!tls.ca_pem.empty()) set_blob(curl, CURLOPT_CAINFO_BLOB, tls.ca_pem);
  if (!identity.certificate_pem.empty()) {
    curl_easy_setopt(curl, CURLOPT_SSLCERTTYPE, "PEM");
    set_blob(curl, CURLOPT_SSLCERT_BLOB, identity.certificate_pem);
    curl_easy_setopt(curl, CURLOPT_SSLKEYTYPE, "PEM");
    set_blob(curl, CURLOPT_SSLKEY_BLOB, identity.key_pem);
  }
}

void set_timeouts(CURL* curl, const HttpTimeouts& timeouts, const HttpRequest& request) {
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, timeouts.connect_seconds);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, request.timeout_seconds.value_or(timeouts.total_seconds));
  // Stalls are judged by on_progress (StallWatch), which knows when a server may think.
  // Streams may be silent for minutes; keepalive probes notice a peer that vanished.
  curl_easy_setopt(curl, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(curl, CURLOPT_TCP_KEEPIDLE, 30L);
  curl_easy_setopt(curl, CURLOPT_TCP_KEEPINTVL, 15L);
}

// An explicit proxy replaces the environment's. Go dials socks5 proxies with the host
// name, libcurl only with socks5h://. Go's transport gives an https proxy the same TLS
// settings as the server: the CA, and the client certificate when the proxy asks.
void set_proxy(CURL* curl, const HttpClientOptions& options, const ClientCertificate& identity) {
  if (options.proxy.empty()) return;
  const std::string scheme = scheme_of(options.proxy);
  const std::string url = scheme == "socks5" ? "socks5h" + options.proxy.substr(scheme.size()) : options.proxy;
  curl_easy_setopt(curl, CURLOPT_PROXY, url.c_str());
  curl_easy_setopt(curl, CURLOPT_NOPROXY, "");
  if (scheme != "https") return;
  curl_easy_setopt(curl, CURLOPT_PROXY_SSL_VERIFYPEER, options.tls.verify ? 1L : 0L);
  curl_easy_setopt(curl, CURLOPT_PROXY_SSL_VERIFYHOST, options.tls.verify ? 2L : 0L);
  if (!options.tls.ca_file.empty()) curl_easy_setopt(curl, CURLOPT_PROXY_CAINFO, options.tls.ca_file.c_str());
  if (!options.tls.ca_pem.empty()) set_blob(curl, CURLOPT_PROXY_CAINFO_BLOB, options.tls.ca_pem);
  if (identity.certificate_pem.empty()) return;
  curl_easy_setopt(curl, CURLOPT_PROXY_SSLCERTTYPE, "PEM");
  set_blob(curl, CURLOPT_PROXY_SSLCERT_BLOB, identity.certificate_pem);
  curl_easy_setopt(curl, CURLOPT_PROXY_SSLKEYTYPE, "PEM");
  set_blob(curl, CURLOPT_PROXY_SSLKEY_BLOB, identity.key_pem);
}

// The proxy's password (as written and decoded) never reaches a message, whatever libcurl says.
std::string without_proxy_password(std::string text, const std::string& proxy) {
  if (proxy.empty()) return text;
  std::unique_ptr<CURLU, decltype(&curl_url_cleanup)> parts(curl_url(), curl_url_cleanup);
  if (curl_url_set(parts.get(), CURLUPART_URL, proxy.c_str(), CURLU_NON_SUPPORT_SCHEME) != CURLUE_OK) return text;
  for (unsigned flags : {0u, static_cast<unsigned>(CURLU_URLDECODE)}) {
    char* password = nullptr;
    if (curl_url_get(parts.get(), CURLUPART_PASSWORD, &password, flags) != CURLUE_OK) continue;
    const std::string secret = password;
    curl_free(password);
    for (auto at = text.find(secret); !secret.empty() && at != std::string::npos; at = text.find(secret))
      text.replace(at, secret.size(), "***");
  }
  return text;
}

// Only http and https, for the request and any redirect it follows; a redirect
// never leaves https for plain http.
void set_protocols(CURL* curl, const HttpRequest& request) {
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, scheme_of(request.url) == "https" ? "https" : "http,https");
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, request.follow_redirects ? 1L : 0L);
  curl_easy_setopt(curl, CURLOPT_MAXREDIRS, kMaxRedirects);
}

void set_method(CURL* curl, const HttpRequest& request, Transfer& transfer) {
  const auto& m = request.method;
  if (m == "HEAD") {
    curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
    return;
  }
  if (request.upload) {
    curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(curl, CURLOPT_READFUNCTION, on_read);
    curl_easy_setopt(curl, CURLOPT_READDATA, &transfer);
    curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(request.upload_size));
  } else if (!request.body.empty() || m == "POST" || m == "PUT" || m == "PATCH") {
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  }
  if (m != "GET" && m != "POST") curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, m.c_str());
}

curl_slist* header_list(const HttpRequest& request) {
  curl_slist* list = nullptr;
  for (const auto& h : request.headers) list = curl_slist_append(list, h.c_str());
  // curl adds "Expect: 100-continue" to large uploads; servers answer quickly
  // without it, and some proxies mishandle it.
  return curl_slist_append(list, "Expect:");
}

// With tls-server-name, the URL carries the certificate's name (SNI and host
// check) while CONNECT_TO sends the connection to the real host.
struct ServerNameRoute {
  std::string url;
  curl_slist* connect_to = nullptr;
  ~ServerNameRoute() { curl_slist_free_all(connect_to); }
};

void route_by_server_name(const std::string& url, const std::string& server_name, ServerNameRoute& route) {
  route.url = url;
  if (server_name.empty()) return;
  std::unique_ptr<CURLU, decltype(&curl_url_cleanup)> parts(curl_url(), curl_url_cleanup);
  char* host = nullptr;
  char* port = nullptr;
  char* renamed = nullptr;
  if (curl_url_set(parts.get(), CURLUPART_URL, url.c_str(), 0) == CURLUE_OK &&
      curl_url_get(parts.get(), CURLUPART_HOST, &host, 0) == CURLUE_OK &&
      curl_url_get(parts.get(), CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) == CURLUE_OK &&
      curl_url_set(parts.get(), CURLUPART_HOST, server_name.c_str(), 0) == CURLUE_OK &&
      curl_url_get(parts.get(), CURLUPART_URL, &renamed, 0) == CURLUE_OK) {
    route.url = renamed;
    const std::string rule = server_name + ":" + port + ":" + host + ":" + port;
    route.connect_to = curl_slist_append(nullptr, rule.c_str());
  }
  curl_free(host);
  curl_free(port);
  curl_free(renamed);
}

HttpError::Failure failure_of(CURLcode code, CURL* curl) {
  long redirects = 0;
  curl_easy_getinfo(curl, CURLINFO_REDIRECT_COUNT, &redirects);
  switch (code) {
    case CURLE_COULDNT_RESOLVE_HOST: return HttpError::Failure::kUnresolved;
    case CURLE_SSL_CONNECT_ERROR: return HttpError::Failure::kTlsHandshake;
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_CERTPROBLEM: return HttpError::Failure::kTlsUntrusted;
    case CURLE_TOO_MANY_REDIRECTS: return HttpError::Failure::kRedirectRefused;
    case CURLE_UNSUPPORTED_PROTOCOL:
      return redirects > 0 ? HttpError::Failure::kRedirectRefused : HttpError::Failure::kDropped;
    default: return HttpError::Failure::kDropped;
  }
}

std::string reason_of(HttpError::Failure failure, CURLcode code, const char* error_text, CURL* curl) {
  if (failure == HttpError::Failure::kRedirectRefused) {
    char* target = nullptr;
    curl_easy_getinfo(curl, CURLINFO_EFFECTIVE_URL, &target);
    const std::string scheme = target ? scheme_of(target) : std::string();
    if (code == CURLE_TOO_MANY_REDIRECTS) return "more than " + std::to_string(kMaxRedirects) + " redirects";
    return "refused a redirect to " + (scheme.empty() ? std::string("another scheme") : scheme + "://") +
           " (only http and https are followed, never from https to http)";
  }
  return error_text[0] ? error_text : curl_easy_strerror(code);
}

std::string message_of(HttpError::Failure failure, const std::string& origin, const std::string& reason) {
  if (failure == HttpError::Failure::kTooLarge) return origin + " " + reason;
  return "cannot talk to " + origin + ": " + reason;
}

}  // namespace

HttpError::HttpError(Failure failure, std::string origin, std::string reason, long status)
    : Error(ErrorKind::kFailed, message_of(failure, origin, reason)),
      failure_(failure),
      origin_(std::move(origin)),
      reason_(std::move(reason)),
      status_(status) {}

std::string HttpResponse::header(const std::string& name) const {
  auto it = headers.find(name);
  return it == headers.end() ? std::string() : it->second;
}

std::vector<std::string> HttpResponse::all(const std::string& name) const {
  std::vector<std::string> out;
  auto [first, last] = headers.equal_range(name);
  for (auto it = first; it != last; ++it) out.push_back(it->second);
  return out;
}

std::string percent_encode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string scheme_of(std::string_view url) {
  const auto end = url.find("://");
  return end == std::string_view::npos ? std::string() : lower(std::string(url.substr(0, end)));
}

std::string origin_of(std::string_view url) {
  auto scheme_end = url.find("://");
  size_t host_start = scheme_end == std::string_view::npos ? 0 : scheme_end + 3;
  auto path = url.find_first_of("/?#", host_start);
  auto origin = url.substr(0, path);
  // userinfo ("user:password@") never appears in a message
  if (auto at = origin.rfind('@'); at != std::string_view::npos && at >= host_start)
    return std::string(url.substr(0, host_start)) + std::string(origin.substr(at + 1));
  return std::string(origin);
}

std::string without_query(std::string_view url) {
  return std::string(url.substr(0, url.find_first_of("?#")));
}

// libcurl's share interface locks by data kind; one mutex per kind.
struct HttpClient::Pool {
  std::array<std::mutex, CURL_LOCK_DATA_LAST> mutexes;
  CURLSH* handle = nullptr;

  Pool() {
    handle = curl_share_init();
    if (!handle) throw std::runtime_error("libcurl could not start a connection pool");
    curl_share_setopt(handle, CURLSHOPT_LOCKFUNC, lock);
    curl_share_setopt(handle, CURLSHOPT_UNLOCKFUNC, unlock);
    curl_share_setopt(handle, CURLSHOPT_USERDATA, this);
    curl_share_setopt(handle, CURLSHOPT_SHARE, CURL_LOCK_DATA_CONNECT);
    curl_share_setopt(handle, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
    curl_share_setopt(handle, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
  }
  ~Pool() { curl_share_cleanup(handle); }
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  static void lock(CURL*, curl_lock_data data, curl_lock_access, void* user) {
    static_cast<Pool*>(user)->mutexes[data].lock();
  }
  static void unlock(CURL*, curl_lock_data data, void* user) { static_cast<Pool*>(user)->mutexes[data].unlock(); }
};

struct HttpClient::State {
  HttpClientOptions options;
  std::mutex mutex;  // guards pool, which reset_connections() replaces
  std::shared_ptr<Pool> pool = std::make_shared<Pool>();

  std::shared_ptr<Pool> current_pool() {
    std::lock_guard lock(mutex);
    return pool;
  }
};

HttpClient::HttpClient(HttpClientOptions options) {
  global_init();
  state_ = std::make_unique<State>();
  state_->options = std::move(options);
}

HttpClient::~HttpClient() = default;

void HttpClient::reset_connections() {
  auto fresh = std::make_shared<Pool>();
  std::lock_guard lock(state_->mutex);
  state_->pool = std::move(fresh);
}

HttpResponse HttpClient::send(const HttpRequest& request) {
  const std::shared_ptr<Pool> pool = state_->current_pool();
  const HttpClientOptions& options = state_->options;
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> handle(curl_easy_init(), curl_easy_cleanup);
  if (!handle) throw std::runtime_error("libcurl could not start a request");
  CURL* curl = handle.get();
  HttpResponse response;
  Transfer transfer{request, response, curl,
                    StallWatch(request.stall.value_or(StallLimit{options.timeouts.stall_seconds, 1}), request)};
  ServerNameRoute route;
  route_by_server_name(request.url, options.tls.server_name, route);
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> headers(header_list(request), curl_slist_free_all);
  char error_text[CURL_ERROR_SIZE] = {0};

  curl_easy_setopt(curl, CURLOPT_URL, route.url.c_str());
  if (route.connect_to) curl_easy_setopt(curl, CURLOPT_CONNECT_TO, route.connect_to);
  curl_easy_setopt(curl, CURLOPT_SHARE, pool->handle);
  curl_easy_setopt(curl, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_2TLS));
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(curl, CURLOPT_USERAGENT, user_agent());
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error_text);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &transfer);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);
  curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
  curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &transfer);
  curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
  set_protocols(curl, request);
  set_timeouts(curl, options.timeouts, request);
  const ClientCertificate& identity = request.client_certificate.value_or(options.tls.client_certificate);
  set_tls(curl, options.tls, identity);
  set_proxy(curl, options, identity);
  set_method(curl, request, transfer);

  const CURLcode code = curl_easy_perform(curl);
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
  if (transfer.thrown) std::rethrow_exception(transfer.thrown);
  const std::string origin = origin_of(request.url);
  if (transfer.limit_passed)
    throw HttpError(HttpError::Failure::kTooLarge, origin,
                    "sent an answer larger than " + describe_size(transfer.limit_passed), response.status);
  if (transfer.stalled)
    throw HttpError(HttpError::Failure::kDropped, origin, transfer.stall.reason(), response.status);
  if (transfer.stopped) {
    response.end = HttpResponse::End::Stopped;
  } else if (code != CURLE_OK) {
    const auto failure = failure_of(code, curl);
    throw HttpError(failure, origin, without_proxy_password(reason_of(failure, code, error_text, curl), options.proxy),
                    response.status);
  }
  return response;
}

}  // namespace gkebuild
