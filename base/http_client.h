// The one HTTP(S) client of gkebuild, on libcurl: the registry, the Kubernetes
// client and schema downloads all use it. Connections, TLS sessions and DNS
// answers are pooled per client and shared between threads; HTTP/2 is used where
// the server offers it; proxies come from the environment as libcurl reads them
// (http_proxy, https_proxy, no_proxy) unless the client names one. Only http and
// https are ever spoken to servers.
//
// Two ways to run a request, with the same options, limits and errors: send() moves it on
// the calling thread (a registry hashing a multi-GB blob in its sink keeps its own core);
// start() hands it to the client's event loop, one thread and one curl multi handle for all
// started transfers, where HTTP/2 streams to one origin share one connection (the Kubernetes
// client's watches and log streams: hundreds of streams, one thread, one connection).
//
// Redirects are not followed unless a request asks: the registry follows them
// itself, because it decides whether an Authorization header may go along.
#pragma once

#include <atomic>
#include <chrono>
#include <exception>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"

namespace gkebuild {

// Who the client is, to a server that asks for a certificate; empty: nobody.
struct ClientCertificate {
  std::string certificate_pem;
  std::string key_pem;
};

struct TlsOptions {
  bool verify = true;         // off only where the user said so (insecure registry, kubeconfig)
  std::string ca_file;        // PEM bundle replacing the system store when set
  std::string ca_pem;         // the same as text (kubeconfig certificate-authority-data)
  ClientCertificate client_certificate;
  std::string server_name;    // the name the server's certificate must carry, when not the URL's host
};

// A transfer moving fewer than `bytes_per_second` for `seconds` counts as
// dropped; seconds 0: never.
struct StallLimit {
  long seconds = 0;
  long bytes_per_second = 1;
};

struct HttpTimeouts {
  long connect_seconds = 30;
  long total_seconds = 0;  // 0: none
  // A transfer that moves no byte for this long counts as dropped; 0: never.
  long stall_seconds = 0;
};

// Receives a 2xx body chunk by chunk; returning false stops the transfer (End::Stopped).
using BodySink = std::function<bool(std::string_view chunk)>;

inline constexpr uint64_t kDefaultBodyLimit = 16 << 20;
inline constexpr uint64_t kNoBodyLimit = UINT64_MAX;

struct HttpRequest {
  std::string method = "GET";
  std::string url;
  std::vector<std::string> headers;  // "Name: value"
  std::string body;                  // small request bodies
  // A streamed request body of `upload_size` bytes pulled from `upload`
  // (which returns how many bytes it put in the buffer, 0 at the end).
  std::function<size_t(char*, size_t)> upload;
  uint64_t upload_size = 0;
  // Called as request body bytes leave, with the total so far.
  std::function<void(uint64_t)> on_sent;
  // When set, a 2xx body goes here instead of HttpResponse::body. What it (or
  // `upload`, `on_sent`) throws ends the transfer and comes out of send().
  BodySink sink;
  // The most body bytes taken from one answer, streamed or buffered: more aborts
  // with HttpError::Failure::kTooLarge. Bounded by default, so that a server
  // answering garbage cannot exhaust memory.
  uint64_t body_limit = kDefaultBodyLimit;
  // Replaces the client's total timeout for this request (0: none).
  std::optional<long> timeout_seconds;
  // Replaces the client's stall_seconds for this request.
  std::optional<StallLimit> stall;
  // Once the last byte of the request body has left, how long the server may think
  // before its answer starts (a registry verifying a large blob); the stall
  // limit rests meanwhile. 0: the stall limit holds throughout.
  long answer_wait_seconds = 0;
  // When it turns true the transfer stops within about a second (End::Stopped),
  // even on a silent stream.
  const std::atomic<bool>* cancel = nullptr;
  // Replaces the client's certificate for this request (credentials that change).
  std::optional<ClientCertificate> client_certificate;
  // Follows up to 5 redirects, to http or https only and never from https to http.
  bool follow_redirects = false;
};

struct HttpResponse {
  enum class End { Complete, Stopped };
  long status = 0;
  std::multimap<std::string, std::string> headers;  // names in lower case
  std::string body;         // the whole body, or, when a sink took a 2xx body, empty
  uint64_t bytes_sent = 0;  // request body bytes handed to the connection
  End end = End::Complete;  // Stopped: by the sink or the cancel flag

  // The first value of header `name` (lower case), empty when absent.
  std::string header(const std::string& name) const;
  std::vector<std::string> all(const std::string& name) const;
};

// A transfer that failed. Messages name the origin, never a path, query or credential.
class HttpError : public Error {
 public:
  enum class Failure {
    kUnresolved,       // the host name does not resolve
    kTlsHandshake,     // TLS could not be negotiated (e.g. plain HTTP on that port)
    kTlsUntrusted,     // the certificate is not trusted, or the CA bundle is unusable
    kTooLarge,         // the body passed the request's body_limit
    kRedirectRefused,  // to another scheme, from https to http, or too many hops
    kDropped,          // no connection, a dropped one, a timeout
  };
  HttpError(Failure failure, std::string origin, std::string reason, long status, bool request_sent = false);

  Failure failure() const { return failure_; }
  const std::string& origin() const { return origin_; }
  const std::string& reason() const { return reason_; }  // what went wrong, without the origin
  long status() const { return status_; }  // the status received before the failure, or 0
  // Whether the request had reached the server: a failure then is a dropped exchange, not an
  // unreachable server, even without a status (an HTTP/2 stream reset before its headers
  // were taken).
  bool request_sent() const { return request_sent_ || status_ != 0; }

 private:
  Failure failure_;
  std::string origin_;
  std::string reason_;
  long status_;
  bool request_sent_;
};

// What a started transfer came to: the response, or the failure send() would have thrown.
struct HttpOutcome {
  HttpResponse response;
  std::exception_ptr error;
};
using HttpCompletion = std::function<void(HttpOutcome outcome)>;

struct HttpClientOptions {
  TlsOptions tls;
  HttpTimeouts timeouts;
  // http://, https:// or socks5:// URL, user:password@ allowed: every request goes
  // through it, whatever the environment's proxy variables say (NO_PROXY included);
  // socks5 resolves host names at the proxy. An https proxy's certificate is checked
  // with `tls`, and it is shown the client certificate (client-go does the same).
  // Empty: the environment's.
  std::string proxy;
};

// Safe to use from several threads at once.
class HttpClient {
 public:
  explicit HttpClient(HttpClientOptions options = {});
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // The answer whatever its status; throws HttpError when the transfer fails. The request's
  // callbacks run on the calling thread.
  HttpResponse send(const HttpRequest& request);

  // Starts `request` on the client's event loop (a thread started on first use) and returns
  // its id. `done` is called once, on the loop's thread, with what send() would have
  // returned or thrown; the request's callbacks run there too. Both must be quick and must
  // not wait for another started transfer (they would wait for themselves); they may start
  // transfers and timers. Transfers still under way when the client goes end without `done`.
  uint64_t start(HttpRequest request, HttpCompletion done);
  // Stops a started transfer: its `done` sees End::Stopped. Nothing once it has finished.
  void cancel(uint64_t transfer);
  // Runs `task` on the loop's thread after `delay` (the pause before a retry).
  void after(std::chrono::milliseconds delay, std::function<void()> task);
  // Whether the caller is the loop's thread (where waiting for a started transfer deadlocks).
  bool on_loop_thread() const;

  // Forgets pooled connections and TLS sessions (after a new client certificate,
  // none made with the old one may be reused). Transfers under way finish.
  void reset_connections();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// `text` with every byte but RFC 3986's unreserved ones (A-Z a-z 0-9 - _ . ~)
// percent-encoded: query values, path segments, form fields.
std::string percent_encode(std::string_view text);

// The scheme of `url` in lower case ("https"), empty when it has none.
std::string scheme_of(std::string_view url);
// "scheme://host:port" of `url`, for messages that must not show paths or queries.
std::string origin_of(std::string_view url);
// "scheme://host:port/path" of `url`, without its query.
std::string without_query(std::string_view url);

}  // namespace gkebuild
