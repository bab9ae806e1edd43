// Parsing the WWW-Authenticate header of a 401 answer (RFC 7235), as registries
// send it: `Bearer realm="https://auth/token",service="reg",scope="repository:a:pull"`.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gkebuild::registry {

struct Challenge {
  std::string scheme;                         // lower case: "basic", "bearer"
  std::map<std::string, std::string> params;  // keys lower case: realm, service, scope, error

  std::string param(const std::string& key) const;
};

// All challenges in one header value, in order. Malformed parts are skipped.
std::vector<Challenge> parse_www_authenticate(std::string_view header);

// The first challenge with `scheme` (lower case) among `headers` values.
std::optional<Challenge> find_challenge(const std::vector<std::string>& headers,
                                        std::string_view scheme);

}  // namespace gkebuild::registry
