// Registry credentials from Docker's config.json (auths, credHelpers, credsStore)
// and containers' auth.json. Values held here are secrets: never print them.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gkebuild::registry {

struct Credentials {
  std::string username;
  std::string password;
  std::string identity_token;  // an OAuth2 refresh token (docker login with a token)
};

// The files consulted, first match wins: $REGISTRY_AUTH_FILE, then
// $DOCKER_CONFIG/config.json (or ~/.docker/config.json). Missing files are skipped later.
std::vector<std::filesystem::path> default_credential_files();

// Credentials for `registry` (host[:port]) from the first file that knows it.
// In one file: credHelpers[registry], then auths[registry], then credsStore.
// Throws RegistryError(kBadInput) for an unreadable file or a missing or failing helper.
std::optional<Credentials> find_credentials(const std::string& registry,
                                            const std::vector<std::filesystem::path>& files);

}  // namespace gkebuild::registry
