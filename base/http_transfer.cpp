#include "base/http_transfer.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <stdexcept>

#include "base/untrusted_text.h"
#include "base/version.h"

namespace gkebuild::http_detail {
namespace {

const char* user_agent() {
  static const std::string agent = std::string("gkebuild/") + kVersion;
  return agent.c_str();
}

constexpr long kMaxRedirects = 5;

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
  // By hand first: a proxy-url too malformed for the URL parser below is quoted whole by
  // libcurl's "Unsupported proxy syntax in '…'".
  text = without_userinfo(text, proxy);
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

curl_slist* header_list(const HttpRequest& request) {
  curl_slist* list = nullptr;
  for (const auto& h : request.headers) list = curl_slist_append(list, h.c_str());
  // curl adds "Expect: 100-continue" to large uploads; servers answer quickly
  // without it, and some proxies mishandle it.
  return curl_slist_append(list, "Expect:");
}

// With tls-server-name, the URL carries the certificate's name (SNI and host
// check) while CONNECT_TO sends the connection to the real host.
std::string route_by_server_name(const std::string& url, const std::string& server_name, curl_slist*& connect_to) {
  if (server_name.empty()) return url;
  std::string routed = url;
  std::unique_ptr<CURLU, decltype(&curl_url_cleanup)> parts(curl_url(), curl_url_cleanup);
  char* host = nullptr;
  char* port = nullptr;
  char* renamed = nullptr;
  if (curl_url_set(parts.get(), CURLUPART_URL, url.c_str(), 0) == CURLUE_OK &&
      curl_url_get(parts.get(), CURLUPART_HOST, &host, 0) == CURLUE_OK &&
      curl_url_get(parts.get(), CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) == CURLUE_OK &&
      curl_url_set(parts.get(), CURLUPART_HOST, server_name.c_str(), 0) == CURLUE_OK &&
      curl_url_get(parts.get(), CURLUPART_URL, &renamed, 0) == CURLUE_OK) {
    routed = renamed;
    const std::string rule = server_name + ":" + port + ":" + host + ":" + port;
    connect_to = curl_slist_append(nullptr, rule.c_str());
  }
  curl_free(host);
  curl_free(port);
  curl_free(renamed);
  return routed;
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

}  // namespace

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

ConnectionPool::ConnectionPool() {
  handle_ = curl_share_init();
  if (!handle_) throw std::runtime_error("libcurl could not start a connection pool");
  curl_share_setopt(handle_, CURLSHOPT_LOCKFUNC, lock);
  curl_share_setopt(handle_, CURLSHOPT_UNLOCKFUNC, unlock);
  curl_share_setopt(handle_, CURLSHOPT_USERDATA, this);
  curl_share_setopt(handle_, CURLSHOPT_SHARE, CURL_LOCK_DATA_CONNECT);
  curl_share_setopt(handle_, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
  curl_share_setopt(handle_, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
}

ConnectionPool::~ConnectionPool() { curl_share_cleanup(handle_); }

void ConnectionPool::lock(CURL*, curl_lock_data data, curl_lock_access, void* user) {
  static_cast<ConnectionPool*>(user)->mutexes_[data].lock();
}

void ConnectionPool::unlock(CURL*, curl_lock_data data, void* user) {
  static_cast<ConnectionPool*>(user)->mutexes_[data].unlock();
}

Transfer::Transfer(HttpRequest request, const HttpClientOptions& options, std::shared_ptr<ConnectionPool> pool)
    : request_(std::move(request)), pool_(std::move(pool)) {
  curl_ = curl_easy_init();
  if (!curl_) throw std::runtime_error("libcurl could not start a request");
  stall_ = std::make_unique<StallWatch>(request_.stall.value_or(StallLimit{options.timeouts.stall_seconds, 1}),
                                        request_);
  configure(options);
}

Transfer::~Transfer() {
  curl_easy_cleanup(curl_);  // before the lists it points to, and before the pool it uses
  curl_slist_free_all(headers_);
  curl_slist_free_all(connect_to_);
}

void Transfer::configure(const HttpClientOptions& options) {
  CURL* curl = curl_;
  url_ = route_by_server_name(request_.url, options.tls.server_name, connect_to_);
  headers_ = header_list(request_);
  curl_easy_setopt(curl, CURLOPT_URL, url_.c_str());
  if (connect_to_) curl_easy_setopt(curl, CURLOPT_CONNECT_TO, connect_to_);
  curl_easy_setopt(curl, CURLOPT_SHARE, pool_->handle());
  curl_easy_setopt(curl, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_2TLS));
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers_);
  curl_easy_setopt(curl, CURLOPT_USERAGENT, user_agent());
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error_text_.data());
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, this);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, this);
  curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
  curl_easy_setopt(curl, CURLOPT_XFERINFODATA, this);
  curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
  set_protocols(curl, request_);
  set_timeouts(curl, options.timeouts, request_);
  const ClientCertificate& identity = request_.client_certificate.value_or(options.tls.client_certificate);
  set_tls(curl, options.tls, identity);
  set_proxy(curl, options, identity);
  proxy_ = options.proxy;

  const auto& m = request_.method;
  if (m == "HEAD") {
    curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
    return;
  }
  if (request_.upload) {
    curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(curl, CURLOPT_READFUNCTION, on_read);
    curl_easy_setopt(curl, CURLOPT_READDATA, this);
    curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(request_.upload_size));
  } else if (!request_.body.empty() || m == "POST" || m == "PUT" || m == "PATCH") {
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request_.body.data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request_.body.size()));
  }
  if (m != "GET" && m != "POST") curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, m.c_str());
}

bool Transfer::success() const {
  long status = 0;
  curl_easy_getinfo(curl_, CURLINFO_RESPONSE_CODE, &status);
  return status >= 200 && status < 300;
}

size_t Transfer::on_header(char* data, size_t size, size_t count, void* user) {
  auto& t = *static_cast<Transfer*>(user);
  std::string_view line(data, size * count);
  if (line.starts_with("HTTP/")) {  // a new answer (100, a followed redirect)
    t.answer_started_ = true;
    t.response_.headers.clear();
    t.response_.body.clear();
    t.body_bytes_ = 0;
  }
  const auto colon = line.find(':');
  if (colon == std::string_view::npos) return line.size();
  auto value = line.substr(colon + 1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' '))
    value.remove_suffix(1);
  t.response_.headers.emplace(lower(std::string(line.substr(0, colon))), std::string(value));
  return line.size();
}

size_t Transfer::on_body(char* data, size_t size, size_t count, void* user) {
  auto& t = *static_cast<Transfer*>(user);
  const std::string_view chunk(data, size * count);
  const bool to_sink = t.request_.sink && t.success();
  // An error body kept in memory is bounded even when the caller streams large bodies.
  const bool error_of_stream = t.request_.sink && !to_sink;
  const uint64_t limit = error_of_stream ? std::min(t.request_.body_limit, kDefaultBodyLimit) : t.request_.body_limit;
  t.body_bytes_ += chunk.size();
  if (t.body_bytes_ > limit) {
    t.limit_passed_ = limit;
    return 0;  // aborts the transfer
  }
  if (!to_sink) {
    t.response_.body.append(chunk);
    return chunk.size();
  }
  try {
    if (t.request_.sink(chunk)) return chunk.size();
    t.stopped_ = true;
  } catch (...) {
    t.thrown_ = std::current_exception();
  }
  return 0;
}

size_t Transfer::on_read(char* buffer, size_t size, size_t count, void* user) {
  auto& t = *static_cast<Transfer*>(user);
  try {
    const size_t n = t.request_.upload(buffer, size * count);
    t.response_.bytes_sent += n;
    if (t.request_.on_sent) t.request_.on_sent(t.response_.bytes_sent);
    return n;
  } catch (...) {
    t.thrown_ = std::current_exception();
    return CURL_READFUNC_ABORT;
  }
}

// libcurl calls this at least once a second, also while a stream is silent.
int Transfer::on_progress(void* user, curl_off_t, curl_off_t downloaded, curl_off_t, curl_off_t uploaded) {
  auto& t = *static_cast<Transfer*>(user);
  if (t.stopped_ || (t.request_.cancel && t.request_.cancel->load())) {
    t.stopped_ = true;
    return 1;  // aborts the transfer
  }
  const auto moved = static_cast<uint64_t>(downloaded + uploaded);
  if (t.stall_->on_progress(moved, static_cast<uint64_t>(uploaded), t.answer_started_)) return 0;
  t.stalled_ = true;
  return 1;
}

HttpResponse Transfer::finish(CURLcode code) {
  curl_easy_getinfo(curl_, CURLINFO_RESPONSE_CODE, &response_.status);
  if (thrown_) std::rethrow_exception(thrown_);
  const std::string origin = origin_of(request_.url);
  if (limit_passed_)
    throw HttpError(HttpError::Failure::kTooLarge, origin,
                    "sent an answer larger than " + describe_size(limit_passed_), response_.status);
  if (stalled_) throw HttpError(HttpError::Failure::kDropped, origin, stall_->reason(), response_.status);
  if (stopped_) {
    response_.end = HttpResponse::End::Stopped;
  } else if (code != CURLE_OK) {
    const auto failure = failure_of(code, curl_);
    long request_bytes = 0;  // of the request's head, once written to a connection
    curl_easy_getinfo(curl_, CURLINFO_REQUEST_SIZE, &request_bytes);
    // Through an http(s) proxy, an https request first asks for a tunnel: bytes written
    // before the proxy answered that CONNECT with 200 never reached the server.
    long connect_code = 0;
    curl_easy_getinfo(curl_, CURLINFO_HTTP_CONNECTCODE, &connect_code);
    const std::string proxy_scheme = scheme_of(proxy_);
    const bool tunnelled = (proxy_scheme == "http" || proxy_scheme == "https") && scheme_of(request_.url) == "https";
    if (tunnelled && connect_code != 200) request_bytes = 0;
    throw HttpError(failure, origin, without_proxy_password(reason_of(failure, code, error_text_.data(), curl_), proxy_),
                    response_.status,
                    request_bytes > 0);
  }
  return std::move(response_);
}

}  // namespace gkebuild::http_detail
