#include "tool/steps/validate/text_checks.h"

#include <cstdint>

namespace gkebuild::validate {

Position position_at(std::string_view text, size_t offset) {
  Position p{1, 1};
  size_t line_start = 0;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++p.line;
      line_start = i + 1;
    }
  }
  p.column = static_cast<int>(offset - line_start) + 1;
  return p;
}

std::optional<Position> find_nul_byte(std::string_view text) {
  size_t at = text.find('\0');
  if (at == std::string_view::npos) return std::nullopt;
  return position_at(text, at);
}

namespace {
// Length of the valid UTF-8 sequence at `i`, or 0 when it is not one (overlongs,
// surrogates and code points past U+10FFFF are invalid).
size_t utf8_sequence_length(std::string_view t, size_t i) {
  auto byte = [&](size_t k) { return static_cast<std::uint8_t>(t[k]); };
  std::uint8_t b = byte(i);
  if (b < 0x80) return 1;
  size_t length;
  std::uint32_t cp;
  if ((b & 0xE0) == 0xC0) { length = 2; cp = b & 0x1F; }
  else if ((b & 0xF0) == 0xE0) { length = 3; cp = b & 0x0F; }
  else if ((b & 0xF8) == 0xF0) { length = 4; cp = b & 0x07; }
  else return 0;
  if (i + length > t.size()) return 0;
  for (size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  static constexpr std::uint32_t kMinimum[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMinimum[length] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return length;
}
}  // namespace

std::optional<Position> find_invalid_utf8(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    if (static_cast<std::uint8_t>(text[i]) < 0x80) {
      ++i;
      continue;
    }
    size_t length = utf8_sequence_length(text, i);
    if (length == 0) return position_at(text, i);
    i += length;
  }
  return std::nullopt;
}

}  // namespace gkebuild::validate
