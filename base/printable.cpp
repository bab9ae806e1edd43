#include "base/printable.h"

#include <cstdint>

namespace gkebuild {
namespace {

void append_escape(std::string& out, unsigned char byte) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\x";
  out += kHex[byte >> 4];
  out += kHex[byte & 0xf];
}

// The length of the valid UTF-8 sequence at the start of `s` (0 if there is none) and its
// code point. Overlong forms and surrogates are invalid, as in RFC 3629.
size_t utf8_sequence(std::string_view s, uint32_t& code_point) {
  auto byte = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  unsigned char lead = byte(0);
  size_t length = lead >= 0xf0 && lead <= 0xf4 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 ? 2 : 0;
  if (lead >= 0xf5 || length == 0 || s.size() < length) return 0;
  code_point = lead & (0x7f >> length);
  for (size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xc0) != 0x80) return 0;
    code_point = (code_point << 6) | (byte(i) & 0x3f);
  }
  static constexpr uint32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code_point < kSmallest[length] || code_point > 0x10ffff) return 0;
  if (code_point >= 0xd800 && code_point <= 0xdfff) return 0;
  return length;
}

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    auto c = static_cast<unsigned char>(text.front());
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7f) append_escape(out, c);
      else out += static_cast<char>(c);
      text.remove_prefix(1);
      continue;
    }
    uint32_t code_point = 0;
    size_t length = utf8_sequence(text, code_point);
    bool c1_control = code_point >= 0x80 && code_point <= 0x9f;
    if (length == 0 || c1_control) {
      // A C1 control (U+0080..U+009F) is escaped byte by byte, like invalid UTF-8.
      for (size_t i = 0; i < (length == 0 ? 1 : length); ++i) {
        append_escape(out, static_cast<unsigned char>(text[i]));
      }
      text.remove_prefix(length == 0 ? 1 : length);
      continue;
    }
    out.append(text.substr(0, length));
    text.remove_prefix(length);
  }
  return out;
}

std::string in_quotes(std::string_view text) { return "'" + printable(text) + "'"; }

std::string printable_lines(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t end; (end = text.find_first_of("\n\t")) != std::string_view::npos; text.remove_prefix(end + 1))
    out += printable(text.substr(0, end)) + text[end];
  return out + printable(text);
}

}  // namespace gkebuild
