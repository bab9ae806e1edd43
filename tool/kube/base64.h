// Standard base64 for the *-data fields of a kubeconfig and ExecCredential.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gkebuild::kube {

// nullopt when `text` is not valid base64 (whitespace and line breaks are ignored).
std::optional<std::string> base64_decode(std::string_view text);
std::string base64_encode(std::string_view bytes);

}  // namespace gkebuild::kube
