#include "kube/http.h"

#include <curl/curl.h>

#include <array>
#include <mutex>
#include <stdexcept>

namespace gkebuild::kube {
namespace {

// libcurl's share interface locks by data kind; one mutex per kind.
struct ShareLocks {
  std::array<std::mutex, CURL_LOCK_DATA_LAST> mutexes;
};

void lock_share(CURL*, curl_lock_data data, curl_lock_access, void* user) {
  static_cast<ShareLocks*>(user)->mutexes[data].lock();
}
void unlock_share(CURL*, curl_lock_data data, void* user) {
  static_cast<ShareLocks*>(user)->mutexes[data].unlock();
}

// One pool of connections, TLS sessions and DNS answers for every thread.
struct SharePool {
  ShareLocks locks;
  CURLSH* handle = nullptr;
  SharePool() {
    handle = curl_share_init();
    curl_share_setopt(handle, CURLSHOPT_LOCKFUNC, lock_share);
    curl_share_setopt(handle, CURLSHOPT_UNLOCKFUNC, unlock_share);
    curl_share_setopt(handle, CURLSHOPT_USERDATA, &locks);
    curl_share_setopt(handle, CURLSHOPT_SHARE, CURL_LOCK_DATA_CONNECT);
    curl_share_setopt(handle, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
    curl_share_setopt(handle, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
  }
  ~SharePool() { curl_share_cleanup(handle); }
};

struct Transfer {
  CURL* curl;
  const BodySink* sink;
  HttpResult* result;
  const std::atomic<bool>* cancel;
  bool stopped = false;
};

// libcurl calls this at least once a second, also while a stream is silent.
int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto& transfer = *static_cast<Transfer*>(user);
  if (!transfer.cancel->load()) return 0;
  transfer.stopped = true;
  return 1;  // aborts the transfer
}

size_t on_body(char* data, size_t size, size_t count, void* user) {
  auto& transfer = *static_cast<Transfer*>(user);
  const size_t bytes = size * count;
  if (transfer.result->status == 0)
    curl_easy_getinfo(transfer.curl, CURLINFO_RESPONSE_CODE, &transfer.result->status);
  const bool success = transfer.result->status >= 200 && transfer.result->status < 300;
  if (!transfer.sink || !success) {
    transfer.result->body.append(data, bytes);
    return bytes;
  }
  if (!(*transfer.sink)(std::string_view(data, bytes))) {
    transfer.stopped = true;
    return 0;  // makes libcurl abort the transfer
  }
  return bytes;
}

void set_blob(CURL* curl, CURLoption option, const std::string& pem) {
  curl_blob blob{const_cast<char*>(pem.data()), pem.size(), CURL_BLOB_COPY};
  curl_easy_setopt(curl, option, &blob);
}

struct UrlParts {
  std::string scheme, host, port, rest;
};

UrlParts split_url(const std::string& url) {
  UrlParts parts;
  const auto scheme_end = url.find("://");
  parts.scheme = url.substr(0, scheme_end);
  const auto host_start = scheme_end + 3;
  const auto path_start = url.find('/', host_start);
  std::string authority = url.substr(host_start, path_start - host_start);
  parts.rest = path_start == std::string::npos ? "" : url.substr(path_start);
  const auto bracket = authority.rfind(']');
  const auto colon = authority.rfind(':');
  if (colon != std::string::npos && (bracket == std::string::npos || colon > bracket)) {
    parts.port = authority.substr(colon + 1);
    authority.resize(colon);
  } else {
    parts.port = parts.scheme == "https" ? "443" : "80";
  }
  parts.host = authority;
  return parts;
}

}  // namespace

struct HttpTransport::Shared {
  std::mutex mutex;
  std::shared_ptr<SharePool> pool = std::make_shared<SharePool>();
};

HttpTransport::HttpTransport(std::string server, TlsSettings tls)
    : server_(std::move(server)), url_base_(server_), tls_(std::move(tls)), shared_(std::make_unique<Shared>()) {
  static const bool initialised = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
  if (!initialised) throw std::runtime_error("libcurl could not be initialised");
  if (!tls_.server_name.empty()) {
    // Ask for the certificate's name, but connect to the server's real address.
    const UrlParts parts = split_url(server_);
    url_base_ = parts.scheme + "://" + tls_.server_name + ":" + parts.port + parts.rest;
    connect_to_ = tls_.server_name + ":" + parts.port + ":" + parts.host + ":" + parts.port;
  }
}

HttpTransport::~HttpTransport() = default;

void HttpTransport::reset_connections() {
  std::lock_guard lock(shared_->mutex);
  shared_->pool = std::make_shared<SharePool>();
}

HttpResult HttpTransport::perform(const HttpRequest& request, const HttpAuth& auth, const BodySink* sink) {
  std::shared_ptr<SharePool> pool;
  {
    std::lock_guard lock(shared_->mutex);
    pool = shared_->pool;
  }
  CURL* curl = curl_easy_init();
  if (!curl) throw std::runtime_error("libcurl could not start a request");
  HttpResult result;
  Transfer transfer{curl, sink, &result, request.cancel};
  const std::string url = url_base_ + request.target;
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_SHARE, pool->handle);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  if (request.method == "HEAD") curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
  if (!request.body.empty() || request.method == "POST" || request.method == "PATCH" || request.method == "PUT") {
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  }
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);
  if (request.cancel) {
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &transfer);
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
  }
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 30L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, request.timeout_seconds);
  curl_easy_setopt(curl, CURLOPT_USERAGENT, "gkebuild");
  // Streams may be silent for minutes; keepalive probes notice a peer that vanished.
  curl_easy_setopt(curl, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(curl, CURLOPT_TCP_KEEPIDLE, 30L);
  curl_easy_setopt(curl, CURLOPT_TCP_KEEPINTVL, 15L);
  curl_slist* connect_to = nullptr;
  if (!connect_to_.empty()) {
    connect_to = curl_slist_append(connect_to, connect_to_.c_str());
    curl_easy_setopt(curl, CURLOPT_CONNECT_TO, connect_to);
  }
  if (!tls_.ca_pem.empty()) set_blob(curl, CURLOPT_CAINFO_BLOB, tls_.ca_pem);
  if (tls_.insecure_skip_verify) {
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 0L);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 0L);
  }
  if (!auth.client_certificate_pem.empty()) {
    curl_easy_setopt(curl, CURLOPT_SSLCERTTYPE, "PEM");
    set_blob(curl, CURLOPT_SSLCERT_BLOB, auth.client_certificate_pem);
    curl_easy_setopt(curl, CURLOPT_SSLKEYTYPE, "PEM");
    set_blob(curl, CURLOPT_SSLKEY_BLOB, auth.client_key_pem);
  }
  if (!auth.username.empty() || !auth.password.empty()) {
    curl_easy_setopt(curl, CURLOPT_USERNAME, auth.username.c_str());
    curl_easy_setopt(curl, CURLOPT_PASSWORD, auth.password.c_str());
  }
  curl_slist* headers = curl_slist_append(nullptr, "Accept: application/json");
  const std::string authorization = "Authorization: Bearer " + auth.bearer_token;
  if (!auth.bearer_token.empty()) headers = curl_slist_append(headers, authorization.c_str());
  const std::string content_type = "Content-Type: " + request.content_type;
  if (!request.content_type.empty()) headers = curl_slist_append(headers, content_type.c_str());
  headers = curl_slist_append(headers, "Expect:");
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  char error_text[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error_text);

  const CURLcode code = curl_easy_perform(curl);
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &result.status);
  curl_slist_free_all(headers);
  curl_slist_free_all(connect_to);
  curl_easy_cleanup(curl);

  if (transfer.stopped) {
    result.end = HttpResult::End::Stopped;
  } else if (code != CURLE_OK) {
    const std::string words = error_text[0] ? error_text : curl_easy_strerror(code);
    if (result.status == 0)
      throw std::runtime_error("cannot reach the Kubernetes API server " + server_ + ": " + words);
    result.end = HttpResult::End::Dropped;
    result.drop_reason = words;
  }
  return result;
}

}  // namespace gkebuild::kube
