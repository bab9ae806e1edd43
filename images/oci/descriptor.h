// Descriptors: what a manifest or index says about a blob it points to.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "images/oci/digest.h"

namespace gkebuild::oci {

struct Platform {
  std::string architecture = "amd64";
  std::string os = "linux";
  std::string variant;  // empty when none
  friend bool operator==(const Platform&, const Platform&) = default;
};

struct Descriptor {
  std::string media_type;
  Digest digest;
  int64_t size = 0;
  std::map<std::string, std::string> annotations;
  std::optional<Platform> platform;
  friend bool operator==(const Descriptor&, const Descriptor&) = default;
};

// The annotation an OCI layout's index.json uses for tags.
inline constexpr const char* kRefNameAnnotation = "org.opencontainers.image.ref.name";

void to_json(nlohmann::json& j, const Platform& p);
void from_json(const nlohmann::json& j, Platform& p);
void to_json(nlohmann::json& j, const Descriptor& d);
void from_json(const nlohmann::json& j, Descriptor& d);
void to_json(nlohmann::json& j, const Digest& d);
void from_json(const nlohmann::json& j, Digest& d);

}  // namespace gkebuild::oci
