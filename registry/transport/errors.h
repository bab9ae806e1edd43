// Errors of the registry client. Messages name the registry and what went wrong,
// and never carry credentials, tokens or request headers.
#pragma once

#include <string>

#include "base/error.h"

namespace gkebuild::registry {

// What kind of failure, finer than gkebuild::ErrorKind so retries can decide.
enum class ErrorKind {
  kBadInput,   // a reference that does not parse, a missing credential helper
  kRemote,     // the registry refused, answered garbage or a wrong digest
  kRetryable,  // dropped connection, 408, 429, 5xx: worth another attempt
};

class RegistryError : public Error {
 public:
  RegistryError(ErrorKind kind, const std::string& message)
      : Error(kind == ErrorKind::kBadInput ? gkebuild::ErrorKind::kBadInput : gkebuild::ErrorKind::kFailed, message),
        registry_kind_(kind) {}
  ErrorKind registry_kind() const { return registry_kind_; }
  bool retryable() const { return registry_kind_ == ErrorKind::kRetryable; }

 private:
  ErrorKind registry_kind_;
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
