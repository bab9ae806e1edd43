// One API server as the kubeconfig describes it: requests carry the current
// credential, and a 401 renews an exec-plugin or tokenFile credential and
// retries once; a 429 or 5xx with Retry-After (API Priority and Fairness throttling)
// is tried again after the time the server asks for, up to kMaxThrottledRetries times.
// Every request runs on the HTTP client's event loop (one thread), so that over HTTP/2 all
// of them, watches and log streams included, share one connection; send() and stream()
// wait for theirs. Object-level operations (objects.h, watch.h, logs.h) build on this.
#pragma once

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <string>

#include "base/http_client.h"
#include "tool/core/kube/credentials.h"
#include "tool/core/kube/kubeconfig.h"

namespace gkebuild::kube {

// What a request came to. A stream that drops after its status line is an
// outcome the watch and log followers handle (they reconnect), not an error.
struct HttpResult {
  enum class End { Complete, Dropped, Stopped };
  long status = 0;  // 0 when Dropped before the answer's status arrived
  std::string body;  // the whole body, or, when streamed, only a non-2xx body
  End end = End::Complete;
  std::string drop_reason;  // when Dropped: what went wrong
  long retry_after = -1;    // seconds, from a Retry-After header (429, 5xx); -1 without one

  // A stream that dropped before its status (an HTTP/2 stream reset): try again, as after any drop.
  bool dropped_unanswered() const { return end == End::Dropped && status == 0; }
};

inline constexpr int kMaxThrottledRetries = 10;  // client-go's default

// Where a started request's result goes: the result, or why there is none (the server cannot
// be reached, or what the sink threw).
using ResultCompletion = std::function<void(HttpResult result, std::exception_ptr error)>;

// `gkebuild … -v`: each request of every Client, as "METHOD /path?query" (never a header,
// a body or the server's credentials), to `log`; empty (the default): nothing. Set once,
// before any Client starts a request.
void set_request_log(std::function<void(const std::string& line)> log);

class Client {
 public:
  explicit Client(const ClusterAccess& access);

  const std::string& namespace_name() const { return namespace_; }
  const std::string& server() const { return server_; }

  // `request.url` is a path and query on the API server (/api/v1/namespaces?limit=5).
  // The response whatever its status; throws only when the server cannot be reached.
  HttpResult send(const HttpRequest& request);
  // A 2xx body goes to `sink` as it arrives; any other status is buffered in the result.
  HttpResult stream(const HttpRequest& request, const BodySink& sink);

  // Starts the request on the event loop; `done` runs there once (see HttpClient::start for
  // what it and `sink` may do). An empty `sink`: the body is buffered, as by send().
  void start(const HttpRequest& request, BodySink sink, ResultCompletion done);
  // Runs `task` on the event loop after `delay`.
  void after(std::chrono::milliseconds delay, std::function<void()> task);

  // send() that throws ApiError naming `action` unless the status is 2xx; the body as JSON.
  nlohmann::json send_json(const HttpRequest& request, const std::string& action);
  // The body of a finished request as JSON; ApiError naming `action` unless 2xx.
  static nlohmann::json json_body(const HttpResult& result, const std::string& action);

  // For the benchmark and tests: requests sent, retries included.
  long requests_sent() const { return requests_; }
  int credential_plugin_runs() const { return credentials_.plugin_runs(); }
  int credential_file_reads() const { return credentials_.token_file_reads(); }

 private:
  class Attempt;
  HttpResult wait(HttpRequest request);

  std::string namespace_;
  std::string server_;
  std::string where_;  // the server, and the proxy on the way, for messages
  CredentialSource credentials_;
  std::atomic<long> requests_{0};
  HttpClient http_;  // last, so that it goes first: its loop's callbacks use the members above
};

}  // namespace gkebuild::kube
