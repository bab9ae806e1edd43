#include "tool/core/kube/client.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>

#include "base/base64.h"
#include "base/error.h"
#include "base/untrusted_text.h"
#include "tool/core/kube/api_error.h"
#include "tool/core/kube/wait_for.h"

namespace gkebuild::kube {
namespace {

// Requests without their own timeout (not watches, not logs) give up after a minute.
HttpClientOptions options_of(const ClusterConfig& cluster) {
  return {.tls = {.verify = !cluster.insecure_skip_tls_verify,
                  .ca_pem = cluster.ca_pem,
                  .server_name = cluster.tls_server_name},
          .timeouts = {.connect_seconds = 30, .total_seconds = 60},
          .proxy = cluster.proxy_url};
}

// The one place where the HTTP client's failures become what kube reports: no
// answer at all is an error; a transfer that broke after the status is Dropped.
HttpResult result_of(HttpOutcome outcome, const std::string& where) {
  HttpResult result;
  try {
    if (outcome.error) std::rethrow_exception(outcome.error);
    HttpResponse& response = outcome.response;
    result.status = response.status;
    result.body = std::move(response.body);
    if (auto header = response.headers.find("retry-after"); header != response.headers.end()) {
      // Seconds only: the API server never sends the HTTP-date form.
      const std::string& value = header->second;
      if (!value.empty() && value.size() < 6 && value.find_first_not_of("0123456789") == std::string::npos)
        result.retry_after = std::stol(value);
    }
    if (response.end == HttpResponse::End::Stopped) result.end = HttpResult::End::Stopped;
  } catch (const HttpError& e) {
    if (!e.request_sent())
      throw Error(ErrorKind::kFailed, "cannot reach the Kubernetes API server " + where + ": " + e.reason());
    result.status = e.status();
    result.end = HttpResult::End::Dropped;
    result.drop_reason = e.reason();
  }
  return result;
}

void authorize(HttpRequest& request, const HttpAuth& auth) {
  if (!auth.bearer_token.empty())
    request.headers.push_back("Authorization: Bearer " + auth.bearer_token);
  else if (!auth.username.empty() || !auth.password.empty())
    request.headers.push_back("Authorization: Basic " + base64_encode(auth.username + ":" + auth.password));
  if (!auth.client_certificate_pem.empty())
    request.client_certificate = ClientCertificate{auth.client_certificate_pem, auth.client_key_pem};
}

}  // namespace

// One request through to its final answer, on the event loop: a 401 renews the credential
// and tries once more (client-go's rule); a throttled answer is tried again after the wait
// the server asks for, on the loop's timer. A sink only ever sees 2xx bodies, so a retry
// never repeats what it was given.
class Client::Attempt : public std::enable_shared_from_this<Attempt> {
 public:
  Attempt(Client& client, HttpRequest request, ResultCompletion done)
      : client_(client), request_(std::move(request)), done_(std::move(done)) {}

  void send() {
    if (request_.cancel && request_.cancel->load()) {  // cancelled while waiting to try again
      HttpResult stopped;
      stopped.end = HttpResult::End::Stopped;
      return conclude(std::move(stopped), nullptr);
    }
    try {
      credential_ = client_.credentials_.current();  // may run an exec plugin
      HttpRequest request = request_;
      authorize(request, credential_.auth);
      ++client_.requests_;
      client_.http_.start(std::move(request),
                          [self = shared_from_this()](HttpOutcome outcome) { self->answered(std::move(outcome)); });
    } catch (...) {
      conclude({}, std::current_exception());
    }
  }

 private:
  void answered(HttpOutcome outcome) {
    try {
      HttpResult result = result_of(std::move(outcome), client_.where_);
      if (result.status == 401 && !renewed_ && client_.credentials_.renew_after_unauthorized(credential_.generation)) {
        renewed_ = true;
        if (client_.credentials_.certificate_changed()) client_.http_.reset_connections();
        return send();
      }
      if (result.retry_after >= 0 && (result.status == 429 || result.status >= 500) &&
          throttled_ < kMaxThrottledRetries) {
        ++throttled_;
        renewed_ = false;
        const auto wait = std::chrono::seconds(std::min(result.retry_after, 60L));
        return client_.http_.after(wait, [self = shared_from_this()] { self->send(); });
      }
      done_(std::move(result), nullptr);
    } catch (...) {
      done_({}, std::current_exception());
    }
  }

  // Never from inside start(): the caller may hold a lock that its completion takes.
  void conclude(HttpResult result, std::exception_ptr error) {
    client_.http_.after(std::chrono::milliseconds(0), [self = shared_from_this(), result = std::move(result), error] {
      self->done_(result, error);
    });
  }

  Client& client_;
  const HttpRequest request_;
  const ResultCompletion done_;
  CredentialSource::Current credential_;
  bool renewed_ = false;
  int throttled_ = 0;
};

Client::Client(const ClusterAccess& access)
    : namespace_(access.namespace_name),
      server_(access.cluster.server),
      // The proxy's origin only: its URL may hold a password.
      where_(untrusted_text(access.cluster.proxy_url.empty() ? server_
                                                             : server_ + " through proxy " + origin_of(access.cluster.proxy_url))),
      credentials_(access.cluster, access.user),
      http_(options_of(access.cluster)) {}

namespace {
std::function<void(const std::string&)>& request_log() {
  static std::function<void(const std::string&)> log;
  return log;
}
}  // namespace

void set_request_log(std::function<void(const std::string& line)> log) { request_log() = std::move(log); }

void Client::start(const HttpRequest& request, BodySink sink, ResultCompletion done) {
  if (request_log()) request_log()(request.method + " " + request.url);
  HttpRequest full = request;
  full.url = server_ + request.url;
  full.headers.push_back("Accept: application/json");
  if (sink) {
    full.sink = std::move(sink);
    full.body_limit = kNoBodyLimit;  // watches and followed logs run for hours
  } else {
    full.body_limit = uint64_t{1} << 30;  // a list of a large cluster's objects can run to hundreds of MiB
  }
  std::make_shared<Attempt>(*this, std::move(full), std::move(done))->send();
}

void Client::after(std::chrono::milliseconds delay, std::function<void()> task) {
  http_.after(delay, std::move(task));
}

HttpResult Client::wait(HttpRequest request) {
  if (http_.on_loop_thread())  // it would wait for itself
    throw Error(ErrorKind::kCannotRun, "kube::Client: a blocking request from the event loop's thread");
  BodySink sink = std::move(request.sink);
  return wait_for<HttpResult>(
      [&](ResultCompletion done) { start(request, std::move(sink), std::move(done)); });
}

HttpResult Client::send(const HttpRequest& request) {
  HttpRequest buffered = request;
  buffered.sink = nullptr;
  return wait(std::move(buffered));
}

HttpResult Client::stream(const HttpRequest& request, const BodySink& sink) {
  HttpRequest streamed = request;
  streamed.sink = sink;
  return wait(std::move(streamed));
}

nlohmann::json Client::send_json(const HttpRequest& request, const std::string& action) {
  return json_body(send(request), action);
}

nlohmann::json Client::json_body(const HttpResult& result, const std::string& action) {
  if (result.dropped_unanswered())
    throw Error(ErrorKind::kFailed, action + ": the connection dropped: " + result.drop_reason);
  if (result.status < 200 || result.status >= 300) throw ApiError(action, result.status, result.body);
  if (result.end == HttpResult::End::Dropped)
    throw Error(ErrorKind::kFailed, action + ": the connection dropped: " + result.drop_reason);
  auto body = nlohmann::json::parse(result.body, nullptr, false);
  if (body.is_discarded()) throw Error(ErrorKind::kFailed, action + ": the API server answered with invalid JSON");
  return body;
}

}  // namespace gkebuild::kube
