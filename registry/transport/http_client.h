// One HTTP connection (a libcurl easy handle that keeps its connection alive).
// Redirects are never followed here: the registry session decides whether an
// Authorization header may go along to the new host.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "transport/errors.h"

namespace gkebuild::registry {

struct TlsOptions {
  bool verify = true;   // off only for registries the user named insecure, and loopback
  std::string ca_file;  // PEM bundle replacing the system store when set
};

struct HttpRequest {
  std::string method = "GET";
  std::string url;
  std::vector<std::string> headers;  // "Name: value"
  std::string body;                  // small request bodies
  // A streamed request body of `upload_size` bytes pulled from `upload`
  // (which returns how many bytes it put in the buffer, 0 at the end).
  std::function<size_t(char*, size_t)> upload;
  uint64_t upload_size = 0;
  // When set, the body of a 2xx answer goes here instead of HttpResponse::body.
  std::function<void(std::string_view)> download;
  // Called as request body bytes leave, with the total so far.
  std::function<void(uint64_t)> on_sent;
};

struct HttpResponse {
  long status = 0;
  std::multimap<std::string, std::string> headers;  // names in lower case
  std::string body;
  uint64_t bytes_sent = 0;  // request body bytes handed to the connection

  // The first value of header `name` (lower case), empty when absent.
  std::string header(const std::string& name) const;
  std::vector<std::string> all(const std::string& name) const;
};

// A failed connection. `tls_handshake` tells a TLS failure apart, so that an
// insecure registry can be tried again over plain HTTP.
class TransportError : public RegistryError {
 public:
  TransportError(ErrorKind kind, const std::string& message, bool tls_handshake)
      : RegistryError(kind, message), tls_handshake_(tls_handshake) {}
  bool tls_handshake() const { return tls_handshake_; }

 private:
  bool tls_handshake_;
};

class HttpClient {
 public:
  explicit HttpClient(TlsOptions tls);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // Throws RegistryError(kRetryable) when the connection fails or drops, naming the host.
  HttpResponse send(const HttpRequest& request);

 private:
  void* handle_;  // CURL*
  TlsOptions tls_;
};

// "scheme://host:port" of `url`, for messages that must not show paths or queries.
std::string origin_of(std::string_view url);
// "scheme://host:port/path" of `url`, without its query.
std::string without_query(std::string_view url);

}  // namespace gkebuild::registry
