// Fetching a schema over HTTP(S), only ever for a --schema-location URL the user gave.
#pragma once

#include <optional>
#include <string>

namespace gkebuild::validate {

// The body of `url`; nullopt on HTTP 404 (kubeconform's "try the next location").
// Throws std::runtime_error naming the URL on any other failure.
std::optional<std::string> http_get(const std::string& url);

}  // namespace gkebuild::validate
