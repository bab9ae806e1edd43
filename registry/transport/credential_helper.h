// The docker-credential-NAME protocol: `docker-credential-NAME get` reads the
// server URL on stdin and prints {"ServerURL","Username","Secret"} on stdout.
#pragma once

#include <optional>
#include <string>

#include "registry/transport/credentials.h"

namespace gkebuild::registry {

// nullopt when the helper says it has no credentials for `server`.
// Throws RegistryError(kBadInput) when the helper is missing or fails; the message
// never includes what the helper printed, which could hold a secret.
std::optional<Credentials> run_credential_helper(const std::string& helper,
                                                 const std::string& server);

}  // namespace gkebuild::registry
