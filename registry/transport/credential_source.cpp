#include "registry/transport/credential_source.h"

#include <cstdlib>

#include "base/child_process.h"
#include "registry/transport/credential_helper.h"

namespace gkebuild::registry {
namespace {

// The server URL handed to credential helpers, as docker passes it.
std::string server_url(const std::string& registry) {
  if (registry == "docker.io" || registry == "registry-1.docker.io") return "https://index.docker.io/v1/";
  return registry;
}

class CredentialHelperSource : public CredentialSource {
 public:
  explicit CredentialHelperSource(std::string helper) : helper_(std::move(helper)) {}
  std::optional<Credentials> find(const std::string& registry) const override {
    return run_credential_helper(helper_, server_url(registry));
  }

 private:
  std::string helper_;
};

// Container Registry's and Artifact Registry's hosts (a port never: they are HTTPS on 443).
bool google_registry(const std::string& registry) {
  return registry == "gcr.io" || registry.ends_with(".gcr.io") || registry.ends_with("-docker.pkg.dev");
}

class GcloudSource : public CredentialSource {
 public:
  std::optional<Credentials> find(const std::string& registry) const override {
    if (!google_registry(registry)) return std::nullopt;
    auto ran = run_child({"gcloud", "auth", "print-access-token"}, {.output_limit = std::size_t{1} << 16});
    if (!ran || ran->exit_code != 0) return std::nullopt;  // no gcloud, or no account: its words are not shown
    std::string token = ran->out;
    while (!token.empty() && (token.back() == '\n' || token.back() == '\r')) token.pop_back();
    if (token.empty()) return std::nullopt;
    return Credentials{"oauth2accesstoken", token, ""};
  }
};

std::string variable(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

class EnvironmentSource : public CredentialSource {
 public:
  std::optional<Credentials> find(const std::string& registry) const override {
    const std::string named = variable("GKEBUILD_REGISTRY");
    Credentials credentials{variable("GKEBUILD_REGISTRY_USERNAME"), variable("GKEBUILD_REGISTRY_PASSWORD"), ""};
    if (named.empty() || named != registry || credentials.username.empty() || credentials.password.empty())
      return std::nullopt;
    return credentials;
  }
};

}  // namespace

std::shared_ptr<const CredentialSource> credential_helper_source(std::string helper) {
  return std::make_shared<CredentialHelperSource>(std::move(helper));
}

std::shared_ptr<const CredentialSource> gcloud_source() { return std::make_shared<GcloudSource>(); }

std::shared_ptr<const CredentialSource> environment_source() { return std::make_shared<EnvironmentSource>(); }

CredentialSources file_sources(const std::vector<std::filesystem::path>& files) {
  CredentialSources sources;
  for (const auto& file : files) sources.push_back(docker_config_source(file));
  return sources;
}

CredentialSources default_credential_sources() {
  CredentialSources sources{environment_source()};
  for (auto& source : file_sources(default_credential_files())) sources.push_back(std::move(source));
  sources.push_back(gcloud_source());
  return sources;
}

std::optional<Credentials> find_credentials(const std::string& registry, const CredentialSources& sources) {
  for (const auto& source : sources)
    if (auto credentials = source->find(registry)) return credentials;
  return std::nullopt;
}

}  // namespace gkebuild::registry
