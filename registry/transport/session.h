// A conversation with one registry: picks https or (for insecure and loopback
// registries) plain http, authenticates (anonymous, basic, bearer tokens with a
// cache and refresh on 401 or expiry) and follows redirects itself, sending
// the Authorization header only to the registry's own origin.
// Safe to use from several threads: connections are pooled and shared between them.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/http_client.h"
#include "registry/transport/credential_source.h"
#include "registry/transport/retry.h"

namespace gkebuild::registry {

// How long a registry may keep a transfer without moving it. A stalled
// transfer fails as a retryable error; RetryPolicy bounds the retries.
struct SessionTimeouts {
  long connect_seconds = 30;
  long request_stall_seconds = 30;  // small requests: pings, tokens, manifests, HEADs
  StallLimit blob_stream{.seconds = 60, .bytes_per_second = 1024};  // blob bodies, down or up
  // After the last byte of an upload (the PUT that closes it), registries may
  // verify a large blob for minutes before answering.
  long upload_answer_seconds = 600;
};

struct SessionOptions {
  std::string ca_file;                           // verifies TLS instead of the system store
  std::vector<std::string> insecure_registries;  // host[:port] allowed plain http / unverified TLS
  std::vector<std::filesystem::path> credential_files;  // config files to read instead of the defaults
  CredentialSources credential_sources;                 // else these; default_credential_sources() if both empty
  std::function<void(const std::string&)> log;           // verbose lines; never secrets
  RetryPolicy retry;
  SessionTimeouts timeouts;
};

// "repository:NAME:ACTIONS", the token scope for one repository.
std::string repository_scope(const std::string& repository, const std::string& actions);

class Session {
 public:
  Session(std::string registry, SessionOptions options);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  const std::string& registry() const;
  const SessionOptions& options() const;

  // Sends `request`; its url is a path ("/v2/…") or an absolute URL taken from a
  // Location header. `scopes` are what a token must grant for it. Throws
  // RegistryError on transport failures and refused logins; other statuses are
  // the caller's to judge.
  HttpResponse send(HttpRequest request, const std::vector<std::string>& scopes);

  // `location` (absolute or relative, from a Location header) made absolute.
  std::string resolve(const std::string& location) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace gkebuild::registry
