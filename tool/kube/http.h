// HTTP(S) to one API server on libcurl: TLS from the kubeconfig (CA, client
// certificate, tls-server-name, insecure), connections shared between threads,
// and bodies either buffered or streamed chunk by chunk (watch, logs).
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace gkebuild::kube {

struct TlsSettings {
  std::string ca_pem;  // empty: the system trust store
  bool insecure_skip_verify = false;
  std::string server_name;  // tls-server-name: the name the certificate must carry
};

// Who the request is from; every field may be empty.
struct HttpAuth {
  std::string bearer_token;
  std::string client_certificate_pem;
  std::string client_key_pem;
  std::string username;
  std::string password;
};

struct HttpRequest {
  std::string method = "GET";
  std::string target;  // path and query, e.g. /api/v1/namespaces?limit=5
  std::string content_type;
  std::string body;
  long timeout_seconds = 60;  // 0: none (streams end on the server's timeoutSeconds)
  // When set and it turns true, the transfer stops within about a second (End::Stopped),
  // even on a silent stream: how a follower leaves watches and logs on Ctrl-C.
  const std::atomic<bool>* cancel = nullptr;
};

struct HttpResult {
  enum class End { Complete, Dropped, Stopped };
  long status = 0;
  std::string body;  // the whole body, or, when streamed, only a non-2xx body
  End end = End::Complete;
  std::string drop_reason;  // when Dropped: libcurl's words
};

// Receives a streamed 2xx body; returning false stops the transfer (End::Stopped).
using BodySink = std::function<bool(std::string_view chunk)>;

class HttpTransport {
 public:
  HttpTransport(std::string server, TlsSettings tls);
  ~HttpTransport();
  HttpTransport(const HttpTransport&) = delete;
  HttpTransport& operator=(const HttpTransport&) = delete;

  // Throws std::runtime_error when the server cannot be reached at all (no status).
  HttpResult perform(const HttpRequest& request, const HttpAuth& auth, const BodySink* sink = nullptr);

  // Forgets pooled connections (a new client certificate must not reuse old TLS sessions).
  void reset_connections();

  const std::string& server() const { return server_; }

 private:
  struct Shared;
  std::string server_;
  std::string url_base_;    // server_ with its host replaced by tls-server-name, if any
  std::string connect_to_;  // "name:port:host:port" for CURLOPT_CONNECT_TO
  TlsSettings tls_;
  std::unique_ptr<Shared> shared_;
};

}  // namespace gkebuild::kube
