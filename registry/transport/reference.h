// Image references as Docker writes them: [registry[:port]/]repository[:tag][@digest].
#pragma once

#include <string>
#include <string_view>

namespace gkebuild::registry {

struct Reference {
  std::string registry;    // "127.0.0.1:5000", "us-docker.pkg.dev", "docker.io"
  std::string repository;  // "team/app"; Docker Hub's official images gain "library/"
  std::string tag;         // empty when absent
  std::string digest;      // "sha256:<hex>", empty when absent

  // The registry host to talk to: Docker Hub's API lives on registry-1.docker.io.
  std::string api_host() const;
  // "registry/repository"
  std::string name() const;
  // "registry/repository@digest", or with ":tag" when there is no digest.
  std::string str() const;
};

// Parses `text`; throws RegistryError(kBadInput) explaining what is wrong.
// A reference without a registry part means Docker Hub, as docker pull reads it.
Reference parse_reference(std::string_view text);

// Only the tag grammar: [A-Za-z0-9_][A-Za-z0-9._-]{0,127}.
bool is_valid_tag(std::string_view tag);

// True for localhost and loopback addresses, with or without a port.
bool is_loopback_host(std::string_view host_and_port);

}  // namespace gkebuild::registry
