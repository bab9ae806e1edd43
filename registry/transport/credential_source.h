// Where registry credentials come from, as one small interface (go-containerregistry's
// Keychain): the Authenticator asks its sources in order and the first that knows the registry
// answers. Sources: Docker's config.json or containers' auth.json (credHelpers, auths,
// credsStore), one docker-credential helper, gcloud's access token for Google's registries, and
// the environment. A new source is one class here and one place in default_credential_sources;
// a test hands the Authenticator (or a Session) a source of its own. Values are secrets: never
// print them.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "registry/transport/credentials.h"

namespace gkebuild::registry {

class CredentialSource {
 public:
  virtual ~CredentialSource() = default;
  // Credentials for `registry` (host[:port]); nullopt when this source does not know it.
  // Throws RegistryError(kBadInput) when the source cannot be read (a broken file, a failing helper).
  virtual std::optional<Credentials> find(const std::string& registry) const = 0;
};

using CredentialSources = std::vector<std::shared_ptr<const CredentialSource>>;

// A config.json or auth.json: credHelpers[registry], then auths[registry], then credsStore.
// A missing file knows no registry.
std::shared_ptr<const CredentialSource> docker_config_source(std::filesystem::path file);

// `docker-credential-NAME get` for every registry (the helper says which it knows).
std::shared_ptr<const CredentialSource> credential_helper_source(std::string helper);

// For gcr.io, *.gcr.io and *-docker.pkg.dev only: `gcloud auth print-access-token` as the
// password of "oauth2accesstoken", as `gcloud auth configure-docker` would arrange. No gcloud,
// or gcloud without an account, knows no registry (the push then says how to log in).
std::shared_ptr<const CredentialSource> gcloud_source();

// $GKEBUILD_REGISTRY_USERNAME and $GKEBUILD_REGISTRY_PASSWORD for the registry named by
// $GKEBUILD_REGISTRY (host[:port]), as a CI job's secrets set them; all three or nothing.
std::shared_ptr<const CredentialSource> environment_source();

// The sources a Session asks unless given others: the environment, each file of
// default_credential_files(), then gcloud.
CredentialSources default_credential_sources();

// The config files `files` as sources, in order.
CredentialSources file_sources(const std::vector<std::filesystem::path>& files);

// The first answer of `sources` for `registry`.
std::optional<Credentials> find_credentials(const std::string& registry, const CredentialSources& sources);

}  // namespace gkebuild::registry
