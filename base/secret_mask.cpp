#include "base/secret_mask.h"

namespace gkebuild {

std::string mask_secrets(std::string text, const std::vector<std::string>& values) {
  static constexpr std::string_view kMask = "***";
  for (const auto& value : values) {
    if (value.empty()) continue;
    for (auto at = text.find(value); at != std::string::npos; at = text.find(value, at + kMask.size()))
      text.replace(at, value.size(), kMask);
  }
  return text;
}

}  // namespace gkebuild
