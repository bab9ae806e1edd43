#include "transport/http_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <mutex>

#include "transport/errors.h"

namespace gkebuild::registry {
namespace {

// Bodies kept in memory (manifests, error documents, tokens) are bounded: a
// registry answering garbage must not exhaust memory.
constexpr size_t kMaxBufferedBody = 16 << 20;

struct Transfer {
  const HttpRequest* request;
  HttpResponse* response;
  CURL* curl;
  uint64_t uploaded = 0;
  bool overflow = false;
};

size_t on_header(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  std::string_view line(data, size * count);
  if (line.starts_with("HTTP/")) t->response->headers.clear();  // a new response (100, 3xx)
  auto colon = line.find(':');
  if (colon != std::string_view::npos) {
    std::string name(line.substr(0, colon));
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    auto value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
    while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' '))
      value.remove_suffix(1);
    t->response->headers.emplace(std::move(name), std::string(value));
  }
  return size * count;
}

size_t on_body(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  long status = 0;
  curl_easy_getinfo(t->curl, CURLINFO_RESPONSE_CODE, &status);
  std::string_view chunk(data, size * count);
  if (t->request->download && status >= 200 && status < 300) {
    t->request->download(chunk);
    return chunk.size();
  }
  if (t->response->body.size() + chunk.size() > kMaxBufferedBody) {
    t->overflow = true;
    return 0;  // aborts the transfer
  }
  t->response->body.append(chunk);
  return chunk.size();
}

size_t on_read(char* buffer, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  size_t n = t->request->upload(buffer, size * count);
  t->uploaded += n;
  if (t->request->on_sent) t->request->on_sent(t->uploaded);
  return n;
}

void global_init() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

curl_slist* header_list(const HttpRequest& request) {
  curl_slist* list = nullptr;
  for (const auto& h : request.headers) list = curl_slist_append(list, h.c_str());
  // curl adds "Expect: 100-continue" to large uploads; registries answer quickly
  // without it, and some proxies mishandle it.
  list = curl_slist_append(list, "Expect:");
  return list;
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
  } else if (m != "GET") {
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  }
  if (m != "GET" && m != "POST") curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, m.c_str());
}

}  // namespace

std::string origin_of(std::string_view url) {
  auto scheme_end = url.find("://");
  size_t host_start = scheme_end == std::string_view::npos ? 0 : scheme_end + 3;
  auto path = url.find_first_of("/?#", host_start);
  return std::string(url.substr(0, path));
}

std::string without_query(std::string_view url) {
  return std::string(url.substr(0, url.find_first_of("?#")));
}

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

HttpClient::HttpClient(TlsOptions tls) : tls_(std::move(tls)) {
  global_init();
  handle_ = curl_easy_init();
  if (!handle_) throw RegistryError(ErrorKind::kRemote, "cannot initialise libcurl");
}

HttpClient::~HttpClient() { curl_easy_cleanup(static_cast<CURL*>(handle_)); }

HttpResponse HttpClient::send(const HttpRequest& request) {
  CURL* curl = static_cast<CURL*>(handle_);
  curl_easy_reset(curl);
  HttpResponse response;
  Transfer transfer{&request, &response, curl};
  char error[CURL_ERROR_SIZE] = {0};
  curl_slist* headers = header_list(request);

  curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 30L);
  // Registries may think for minutes before answering the final PUT of a large
  // blob; only a transfer stalled that long counts as dropped.
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, 600L);
  curl_easy_setopt(curl, CURLOPT_USERAGENT, "gkebuild/0.1.0");
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &transfer);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);
  curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, tls_.verify ? 1L : 0L);
  curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, tls_.verify ? 2L : 0L);
  if (!tls_.ca_file.empty()) curl_easy_setopt(curl, CURLOPT_CAINFO, tls_.ca_file.c_str());
  set_method(curl, request, transfer);

  CURLcode code = curl_easy_perform(curl);
  curl_slist_free_all(headers);
  response.bytes_sent = transfer.uploaded;
  if (transfer.overflow)
    throw RegistryError(ErrorKind::kRemote, origin_of(request.url) + " sent an answer larger than " +
                                                std::to_string(kMaxBufferedBody >> 20) + " MiB");
  if (code != CURLE_OK) {
    std::string why = error[0] ? error : curl_easy_strerror(code);
    // A TLS handshake that fails (wrong protocol, untrusted certificate) fails
    // the same way next time; so does an unknown host.
    bool tls = code == CURLE_SSL_CONNECT_ERROR;
    auto kind = tls || code == CURLE_SSL_CACERT_BADFILE || code == CURLE_PEER_FAILED_VERIFICATION ||
                        code == CURLE_COULDNT_RESOLVE_HOST
                    ? ErrorKind::kRemote
                    : ErrorKind::kRetryable;
    throw TransportError(kind, "cannot talk to " + origin_of(request.url) + ": " + why, tls);
  }
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
  return response;
}

}  // namespace gkebuild::registry
