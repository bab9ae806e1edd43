#include "registry/transport/reference.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <cctype>
#include <regex>

#include "registry/transport/errors.h"

namespace gkebuild::registry {
namespace {

constexpr std::string_view kDockerHub = "docker.io";
constexpr size_t kMaxNameLength = 255;

[[noreturn]] void invalid(std::string_view text, const std::string& why) {
  throw RegistryError(ErrorKind::kBadInput,
                      "invalid image reference \"" + std::string(text) + "\": " + why);
}


// One path component: [a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*
bool is_path_component(std::string_view part) {
  static const std::regex grammar("[a-z0-9]+(?:(?:\\.|_|__|-+)[a-z0-9]+)*");
  return std::regex_match(part.begin(), part.end(), grammar);
}

// A DNS name or IPv4 address, optionally [IPv6], with an optional port.
bool is_domain(std::string_view domain) {
  static const std::regex grammar(
      "(?:(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])"
      "(?:\\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*"
      "|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?");
  return std::regex_match(domain.begin(), domain.end(), grammar);
}

bool is_valid_digest(std::string_view digest) {
  static const std::regex grammar("[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]+");
  if (!std::regex_match(digest.begin(), digest.end(), grammar)) return false;
  if (digest.starts_with("sha256:")) {
    auto hex = digest.substr(7);
    if (hex.size() != 64) return false;
    for (char c : hex)
      if (!std::isxdigit(static_cast<unsigned char>(c)) || std::isupper(static_cast<unsigned char>(c)))
        return false;
  }
  return true;
}

// Docker's rule: the first component is a registry when it has a dot or a port,
// or is "localhost".
bool looks_like_registry(std::string_view first) {
  return first.find_first_of(".:") != std::string_view::npos || first == "localhost" ||
         first.find_first_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ") != std::string_view::npos;
}

void check_repository(std::string_view text, std::string_view repository) {
  if (repository.empty()) invalid(text, "the repository name is empty");
  size_t start = 0;
  while (true) {
    size_t slash = repository.find('/', start);
    auto part = repository.substr(start, slash == std::string_view::npos ? std::string_view::npos
                                                                          : slash - start);
    if (!is_path_component(part)) {
      bool upper = false;
      for (char c : part) upper = upper || std::isupper(static_cast<unsigned char>(c));
      invalid(text, upper ? "repository names must be lowercase"
                          : "\"" + std::string(part) +
                                "\" is not a valid repository path component");
    }
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
}

}  // namespace

bool is_valid_tag(std::string_view tag) {
  if (tag.empty() || tag.size() > 128) return false;
  auto ok = [](char c, bool first) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || (!first && (c == '.' || c == '-'));
  };
  for (size_t i = 0; i < tag.size(); ++i)
    if (!ok(tag[i], i == 0)) return false;
  return true;
}

bool is_loopback_host(std::string_view host_and_port) {
  std::string host(host_and_port);
  if (host.starts_with("[")) {
    const auto close = host.find(']');
    if (close == std::string::npos) return false;
    host = host.substr(1, close - 1);
  } else {
    host = host.substr(0, host.find(':'));
  }
  if (host == "localhost") return true;
  // An address, parsed, not a name that merely starts like one ("127.evil.example").
  in_addr v4{};
  if (::inet_pton(AF_INET, host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  return ::inet_pton(AF_INET6, host.c_str(), &v6) == 1 && IN6_IS_ADDR_LOOPBACK(&v6);
}

Reference parse_reference(std::string_view text) {
  if (text.empty()) invalid(text, "it is empty");
  Reference ref;
  std::string_view rest = text;
  if (auto at = rest.find('@'); at != std::string_view::npos) {
    ref.digest = std::string(rest.substr(at + 1));
    if (!is_valid_digest(ref.digest)) invalid(text, "\"" + ref.digest + "\" is not a valid digest");
    rest = rest.substr(0, at);
  }
  // A tag is the part after the last ':' that follows the last '/'.
  auto last_slash = rest.rfind('/');
  auto colon = rest.rfind(':');
  if (colon != std::string_view::npos && (last_slash == std::string_view::npos || colon > last_slash)) {
    ref.tag = std::string(rest.substr(colon + 1));
    if (!is_valid_tag(ref.tag)) invalid(text, "\"" + ref.tag + "\" is not a valid tag");
    rest = rest.substr(0, colon);
  }
  auto first_slash = rest.find('/');
  if (first_slash != std::string_view::npos && looks_like_registry(rest.substr(0, first_slash))) {
    ref.registry = std::string(rest.substr(0, first_slash));
    if (!is_domain(ref.registry)) invalid(text, "\"" + ref.registry + "\" is not a valid registry host");
    rest = rest.substr(first_slash + 1);
  } else {
    ref.registry = std::string(kDockerHub);
  }
  check_repository(text, rest);
  ref.repository = std::string(rest);
  if ((ref.registry == "docker.io" || ref.registry == "index.docker.io") &&
      ref.repository.find('/') == std::string::npos)
    ref.repository = "library/" + ref.repository;
  if (ref.registry == "index.docker.io") ref.registry = std::string(kDockerHub);
  if (ref.name().size() > kMaxNameLength)
    invalid(text, "the name is longer than " + std::to_string(kMaxNameLength) + " characters");
  return ref;
}

std::string Reference::api_host() const {
  return registry == kDockerHub ? "registry-1.docker.io" : registry;
}

std::string Reference::name() const { return registry + "/" + repository; }

std::string Reference::str() const {
  if (!digest.empty()) return name() + "@" + digest;
  if (!tag.empty()) return name() + ":" + tag;
  return name();
}

}  // namespace gkebuild::registry
