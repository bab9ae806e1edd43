#include "base/http_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <exception>
#include <mutex>

#include "base/http_loop.h"
#include "base/http_transfer.h"
#include "base/untrusted_text.h"

namespace gkebuild {
namespace {

void global_init() {
  static const bool initialised = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
  if (!initialised) throw std::runtime_error("libcurl could not be initialised");
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::string message_of(HttpError::Failure failure, const std::string& origin, const std::string& reason) {
  if (failure == HttpError::Failure::kTooLarge) return origin + " " + reason;
  return "cannot talk to " + origin + ": " + reason;
}

}  // namespace

HttpError::HttpError(Failure failure, std::string origin, std::string reason, long status, bool request_sent)
    // libcurl's text and a server's may quote a URL with its credentials, or control bytes.
    : Error(ErrorKind::kFailed, message_of(failure, untrusted_text(origin), untrusted_text(reason))),
      failure_(failure),
      origin_(untrusted_text(origin)),
      reason_(untrusted_text(reason)),
      status_(status),
      request_sent_(request_sent) {}

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

struct HttpClient::State {
  HttpClientOptions options;
  std::mutex mutex;  // guards pool, which reset_connections() replaces, and loop
  std::shared_ptr<http_detail::ConnectionPool> pool = std::make_shared<http_detail::ConnectionPool>();
  std::unique_ptr<http_detail::Loop> loop;  // started by the first start() or after()

  std::shared_ptr<http_detail::ConnectionPool> current_pool() {
    std::lock_guard lock(mutex);
    return pool;
  }
  http_detail::Loop& started_loop() {
    std::lock_guard lock(mutex);
    if (!loop) loop = std::make_unique<http_detail::Loop>();
    return *loop;
  }
};

HttpClient::HttpClient(HttpClientOptions options) {
  global_init();
  state_ = std::make_unique<State>();
  state_->options = std::move(options);
}

// The loop goes first: its transfers use the pool.
HttpClient::~HttpClient() { state_->loop.reset(); }

void HttpClient::reset_connections() {
  auto fresh = std::make_shared<http_detail::ConnectionPool>();
  std::lock_guard lock(state_->mutex);
  state_->pool = std::move(fresh);
}

HttpResponse HttpClient::send(const HttpRequest& request) {
  http_detail::Transfer transfer(request, state_->options, state_->current_pool());
  return transfer.finish(curl_easy_perform(transfer.handle()));
}

uint64_t HttpClient::start(HttpRequest request, HttpCompletion done) {
  auto transfer = std::make_unique<http_detail::Transfer>(std::move(request), state_->options, state_->current_pool());
  // Started together, transfers to one origin wait for the first connection rather than
  // each opening its own: over HTTP/2 they then share it as streams. Only on the loop, whose
  // one multi handle sees that connection: a send() that waited so for a connection another
  // thread's transfer holds could wait forever (a parallel pull through a redirect hung).
  curl_easy_setopt(transfer->handle(), CURLOPT_PIPEWAIT, 1L);
  return state_->started_loop().start(std::move(transfer), std::move(done));
}

void HttpClient::cancel(uint64_t transfer) { state_->started_loop().cancel(transfer); }

void HttpClient::after(std::chrono::milliseconds delay, std::function<void()> task) {
  state_->started_loop().after(delay, std::move(task));
}

bool HttpClient::on_loop_thread() const {
  std::lock_guard lock(state_->mutex);
  return state_->loop && state_->loop->on_loop_thread();
}

}  // namespace gkebuild
