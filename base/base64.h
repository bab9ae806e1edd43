// Standard base64 (RFC 4648, padded): kubeconfig *-data fields, ExecCredential,
// Basic credentials and docker config.json "auth" values.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gkebuild {

std::string base64_encode(std::string_view bytes);
// nullopt when `text` is not valid padded base64; whitespace and line breaks are ignored.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace gkebuild
