// Standard base64 (RFC 4648) for Basic credentials and JWT-free token handling.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gkebuild::registry {

std::string base64_encode(std::string_view bytes);
// nullopt when `text` is not valid padded base64.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace gkebuild::registry
