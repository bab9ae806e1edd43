// Errors of the registry client. Messages name the registry and what went wrong,
// and never carry credentials, tokens or request headers.
#pragma once

#include <stdexcept>
#include <string>

namespace gkebuild::registry {

// What kind of failure, so the CLI can choose the exit code and retries can decide.
enum class ErrorKind {
  kBadInput,   // a reference that does not parse, a missing credential helper: exit 2
  kRemote,     // the registry refused, answered garbage or a wrong digest: exit 1
  kRetryable,  // dropped connection, 408, 429, 5xx: worth another attempt
};

class RegistryError : public std::runtime_error {
 public:
  RegistryError(ErrorKind kind, const std::string& message)
      : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const { return kind_; }
  bool retryable() const { return kind_ == ErrorKind::kRetryable; }

 private:
  ErrorKind kind_;
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

}  // namespace gkebuild::registry
