#include "kube/client.h"

#include "kube/api_error.h"

namespace gkebuild::kube {
namespace {

TlsSettings tls_of(const ClusterConfig& cluster) {
  return TlsSettings{cluster.ca_pem, cluster.insecure_skip_tls_verify, cluster.tls_server_name};
}

}  // namespace

Client::Client(const ClusterAccess& access)
    : namespace_(access.namespace_name),
      transport_(access.cluster.server, tls_of(access.cluster)),
      credentials_(access.cluster, access.user) {}

HttpResult Client::perform(const HttpRequest& request, const BodySink* sink) {
  auto credential = credentials_.current();
  ++requests_;
  HttpResult result = transport_.perform(request, credential.auth, sink);
  if (result.status != 401 || !credentials_.renew_after_unauthorized(credential.generation)) return result;
  // client-go's rule: a 401 renews the credential and the request is tried once more.
  if (credentials_.certificate_changed()) transport_.reset_connections();
  credential = credentials_.current();
  ++requests_;
  return transport_.perform(request, credential.auth, sink);
}

HttpResult Client::send(const HttpRequest& request) { return perform(request, nullptr); }

HttpResult Client::stream(const HttpRequest& request, const BodySink& sink) { return perform(request, &sink); }

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
