#include "registry/transport/credentials.h"

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "base/atomic_file.h"
#include "base/base64.h"
#include "registry/transport/credential_helper.h"
#include "registry/transport/credential_source.h"
#include "registry/transport/errors.h"

namespace gkebuild::registry {
namespace {

// "https://host:port/v1/" and "host:port" name the same registry in config files.
std::string host_of_key(std::string_view key) {
  if (auto scheme = key.find("://"); scheme != std::string_view::npos) key = key.substr(scheme + 3);
  return std::string(key.substr(0, key.find('/')));
}

// Docker Hub is written several ways; all of them mean one registry.
bool same_registry(const std::string& key, const std::string& registry) {
  auto host = host_of_key(key);
  auto hub = [](const std::string& h) {
    return h == "docker.io" || h == "index.docker.io" || h == "registry-1.docker.io";
  };
  return host == registry || (hub(host) && hub(registry));
}

nlohmann::json read_config(const std::filesystem::path& file) {
  auto config = nlohmann::json::parse(read_file(file), nullptr, false);
  if (!config.is_object())
    throw RegistryError(ErrorKind::kBadInput, file.string() + ": not a valid JSON object");
  return config;
}

std::optional<Credentials> from_auth_entry(const nlohmann::json& entry,
                                           const std::filesystem::path& file,
                                           const std::string& registry) {
  if (!entry.is_object()) return std::nullopt;
  Credentials credentials;
  credentials.identity_token = entry.value("identitytoken", "");
  std::string auth = entry.value("auth", "");
  if (!auth.empty()) {
    auto decoded = base64_decode(auth);
    auto colon = decoded ? decoded->find(':') : std::string::npos;
    if (colon == std::string::npos)
      throw RegistryError(ErrorKind::kBadInput, file.string() + ": the \"auth\" entry for " +
                                                    registry + " is not base64 of user:password");
    credentials.username = decoded->substr(0, colon);
    credentials.password = decoded->substr(colon + 1);
  } else {
    credentials.username = entry.value("username", "");
    credentials.password = entry.value("password", "");
  }
  if (credentials.username.empty() && credentials.password.empty() &&
      credentials.identity_token.empty())
    return std::nullopt;  // an empty entry: docker writes these beside a credsStore
  return credentials;
}

std::optional<Credentials> lookup_in(const std::filesystem::path& file, const std::string& registry) {
  auto config = read_config(file);
  if (auto helpers = config.find("credHelpers"); helpers != config.end() && helpers->is_object())
    for (auto& [key, helper] : helpers->items())
      if (same_registry(key, registry) && helper.is_string())
        return credential_helper_source(helper.get<std::string>())->find(registry);
  if (auto auths = config.find("auths"); auths != config.end() && auths->is_object())
    for (auto& [key, entry] : auths->items())
      if (same_registry(key, registry))
        if (auto credentials = from_auth_entry(entry, file, registry)) return credentials;
  if (auto store = config.find("credsStore"); store != config.end() && store->is_string() &&
                                              !store->get<std::string>().empty()) {
    return credential_helper_source(store->get<std::string>())->find(registry);
  }
  return std::nullopt;
}

}  // namespace

std::vector<std::filesystem::path> default_credential_files() {
  std::vector<std::filesystem::path> files;
  if (const char* auth_file = std::getenv("REGISTRY_AUTH_FILE"); auth_file && *auth_file)
    files.emplace_back(auth_file);
  if (const char* dir = std::getenv("DOCKER_CONFIG"); dir && *dir)
    files.push_back(std::filesystem::path(dir) / "config.json");
  else if (const char* home = std::getenv("HOME"); home && *home)
    files.push_back(std::filesystem::path(home) / ".docker" / "config.json");
  return files;
}

// A config file as a source: its answer when it names the registry.
class DockerConfigSource : public CredentialSource {
 public:
  explicit DockerConfigSource(std::filesystem::path file) : file_(std::move(file)) {}
  std::optional<Credentials> find(const std::string& registry) const override {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file_, ec)) return std::nullopt;
    return lookup_in(file_, registry);
  }

 private:
  std::filesystem::path file_;
};

std::shared_ptr<const CredentialSource> docker_config_source(std::filesystem::path file) {
  return std::make_shared<DockerConfigSource>(std::move(file));
}

std::optional<Credentials> find_credentials(const std::string& registry,
                                            const std::vector<std::filesystem::path>& files) {
  return find_credentials(registry, file_sources(files));
}

}  // namespace gkebuild::registry
