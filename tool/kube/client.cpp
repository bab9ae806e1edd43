#include "kube/client.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "base/base64.h"
#include "kube/api_error.h"

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
HttpResult result_of(HttpClient& http, const HttpRequest& request, const std::string& where) {
  HttpResult result;
  try {
    HttpResponse response = http.send(request);
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
    if (e.status() == 0) throw std::runtime_error("cannot reach the Kubernetes API server " + where + ": " + e.reason());
    result.status = e.status();
    result.end = HttpResult::End::Dropped;
    result.drop_reason = e.reason();
  }
  return result;
}

}  // namespace

Client::Client(const ClusterAccess& access)
    : namespace_(access.namespace_name),
      server_(access.cluster.server),
      // The proxy's origin only: its URL may hold a password.
      where_(access.cluster.proxy_url.empty() ? server_ : server_ + " through proxy " + origin_of(access.cluster.proxy_url)),
      http_(options_of(access.cluster)),
      credentials_(access.cluster, access.user) {}

HttpResult Client::send_as(HttpRequest request, const HttpAuth& auth) {
  ++requests_;
  if (!auth.bearer_token.empty())
    request.headers.push_back("Authorization: Bearer " + auth.bearer_token);
  else if (!auth.username.empty() || !auth.password.empty())
    request.headers.push_back("Authorization: Basic " + base64_encode(auth.username + ":" + auth.password));
  if (!auth.client_certificate_pem.empty())
    request.client_certificate = ClientCertificate{auth.client_certificate_pem, auth.client_key_pem};
  return result_of(http_, request, where_);
}

HttpResult Client::perform(HttpRequest request) {
  request.url = server_ + request.url;
  request.headers.push_back("Accept: application/json");
  HttpResult result = authenticated(request);
  for (int retry = 0; retry < kMaxThrottledRetries && result.retry_after >= 0 &&
                      (result.status == 429 || result.status >= 500);
       ++retry) {
    // The body was not handed to a sink (non-2xx answers are buffered), so trying again is safe.
    std::this_thread::sleep_for(std::chrono::seconds(std::min(result.retry_after, 60L)));
    result = authenticated(request);
  }
  return result;
}

HttpResult Client::authenticated(const HttpRequest& request) {
  auto credential = credentials_.current();
  HttpResult result = send_as(request, credential.auth);
  if (result.status != 401 || !credentials_.renew_after_unauthorized(credential.generation)) return result;
  // client-go's rule: a 401 renews the credential and the request is tried once more.
  if (credentials_.certificate_changed()) http_.reset_connections();
  return send_as(request, credentials_.current().auth);
}

HttpResult Client::send(const HttpRequest& request) {
  HttpRequest buffered = request;
  // A list of a large cluster's objects can run to hundreds of MiB.
  buffered.body_limit = uint64_t{1} << 30;
  return perform(std::move(buffered));
}

HttpResult Client::stream(const HttpRequest& request, const BodySink& sink) {
  HttpRequest streamed = request;
  streamed.sink = sink;
  streamed.body_limit = kNoBodyLimit;  // watches and followed logs run for hours
  return perform(std::move(streamed));
}

nlohmann::json Client::send_json(const HttpRequest& request, const std::string& action) {
  return json_body(send(request), action);
}

nlohmann::json Client::json_body(const HttpResult& result, const std::string& action) {
  if (result.status < 200 || result.status >= 300) throw ApiError(action, result.status, result.body);
  if (result.end == HttpResult::End::Dropped)
    throw std::runtime_error(action + ": the connection dropped: " + result.drop_reason);
  auto body = nlohmann::json::parse(result.body, nullptr, false);
  if (body.is_discarded()) throw std::runtime_error(action + ": the API server answered with invalid JSON");
  return body;
}

}  // namespace gkebuild::kube
