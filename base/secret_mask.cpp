#include "base/secret_mask.h"

#include <algorithm>

#include "base/base64.h"

namespace gkebuild {
namespace {

constexpr std::string_view kMask = "***";

std::string_view trimmed(std::string_view line) {
  const auto first = line.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
}

void add_unique(std::vector<std::string>& needles, std::string_view needle) {
  if (std::find(needles.begin(), needles.end(), needle) == needles.end()) needles.emplace_back(needle);
}

// The lines a value shows as when printed one line at a time.
void add_lines(std::vector<std::string>& needles, std::string_view value) {
  if (value.find('\n') == std::string_view::npos) return;
  std::size_t start = 0;
  while (start <= value.size()) {
    const std::size_t end = std::min(value.find('\n', start), value.size());
    const std::string_view line = trimmed(value.substr(start, end - start));
    if (line.size() >= kShortestMaskedLine) add_unique(needles, line);
    start = end + 1;
  }
}

// The base64 form, whole and wrapped as the common tools wrap it.
void add_base64(std::vector<std::string>& needles, std::string_view value) {
  const std::string encoded = base64_encode(value);
  add_unique(needles, encoded);
  for (const std::size_t width : {std::size_t{64}, std::size_t{76}}) {
    if (encoded.size() <= width) continue;
    for (std::size_t at = 0; at < encoded.size(); at += width) {
      const std::string_view line = std::string_view(encoded).substr(at, width);
      if (line.size() >= kShortestMaskedLine) add_unique(needles, line);
    }
  }
}

}  // namespace

SecretMask::SecretMask(const std::vector<std::string>& values) {
  for (const auto& value : values) {
    if (value.empty()) continue;
    add_unique(needles_, value);
    add_lines(needles_, value);
    // `echo "$TOKEN" | base64` encodes the value with a newline, a file's value often ends with
    // one that `$(cat FILE)` drops: the base64 of each, which differ in their last characters.
    const std::string_view bare = std::string_view(value).substr(0, value.find_last_not_of("\r\n") + 1);
    add_base64(needles_, value);
    if (!bare.empty()) {
      add_base64(needles_, bare);
      add_base64(needles_, std::string(bare) + "\n");
    }
  }
}

std::string SecretMask::apply(std::string_view text) const {
  if (needles_.empty()) return std::string(text);
  // Every byte of every occurrence (overlapping ones too) is covered; each run of covered
  // bytes becomes one mask, so no part of a longer value survives a shorter one's match.
  std::vector<bool> covered(text.size(), false);
  bool any = false;
  for (const auto& needle : needles_)
    for (auto at = text.find(needle); at != std::string_view::npos; at = text.find(needle, at + 1)) {
      std::fill(covered.begin() + static_cast<std::ptrdiff_t>(at),
                covered.begin() + static_cast<std::ptrdiff_t>(at + needle.size()), true);
      any = true;
    }
  if (!any) return std::string(text);
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!covered[i]) {
      out += text[i];
    } else if (i == 0 || !covered[i - 1]) {
      out += kMask;
    }
  }
  return out;
}

std::string mask_secrets(std::string_view text, const std::vector<std::string>& values) {
  return SecretMask(values).apply(text);
}

}  // namespace gkebuild
