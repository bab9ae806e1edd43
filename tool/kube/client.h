// One API server as the kubeconfig describes it: requests carry the current
// credential, and a 401 renews an exec-plugin or tokenFile credential and
// retries once. Object-level operations (objects.h, watch.h, logs.h) build on this.
#pragma once

#include <nlohmann/json.hpp>

#include <atomic>
#include <string>

#include "kube/credentials.h"
#include "kube/http.h"
#include "kube/kubeconfig.h"

namespace gkebuild::kube {

class Client {
 public:
  explicit Client(const ClusterAccess& access);

  const std::string& namespace_name() const { return namespace_; }
  const std::string& server() const { return transport_.server(); }

  // The response whatever its status; throws only when the server cannot be reached.
  HttpResult send(const HttpRequest& request);
  // A 2xx body goes to `sink` as it arrives; any other status is buffered in the result.
  HttpResult stream(const HttpRequest& request, const BodySink& sink);

  // send() that throws ApiError naming `action` unless the status is 2xx; the body as JSON.
  nlohmann::json send_json(const HttpRequest& request, const std::string& action);
  // The body of a finished request as JSON; ApiError naming `action` unless 2xx.
  static nlohmann::json json_body(const HttpResult& result, const std::string& action);

  // For the benchmark and tests: requests sent, retries included.
  long requests_sent() const { return requests_; }
  int credential_plugin_runs() const { return credentials_.plugin_runs(); }

 private:
  HttpResult perform(const HttpRequest& request, const BodySink* sink);

  std::string namespace_;
  HttpTransport transport_;
  CredentialSource credentials_;
  std::atomic<long> requests_{0};
};

}  // namespace gkebuild::kube
