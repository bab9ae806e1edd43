#include "tool/core/jinja/runtime/limits.h"
#include "tool/core/jinja/values/unicode.h"

#include <clocale>
#include <cwctype>
#include <locale.h>

#include "base/ascii_scan.h"

namespace gkebuild::jinja {

char32_t decode_utf8(std::string_view text, size_t& pos) {
  unsigned char c = static_cast<unsigned char>(text[pos]);
  int extra = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
  if (extra <= 0 || pos + extra >= text.size()) {
    ++pos;
    return c;
  }
  char32_t cp = c & (0x3F >> extra);
  for (int i = 1; i <= extra; ++i) {
    unsigned char next = static_cast<unsigned char>(text[pos + i]);
    if ((next & 0xC0) != 0x80) {
      ++pos;
      return c;
    }
    cp = (cp << 6) | (next & 0x3F);
  }
  pos += extra + 1;
  return cp;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

bool is_space(char32_t cp) {
  if (cp < 0x80) return cp == ' ' || (cp >= 0x09 && cp <= 0x0D) || (cp >= 0x1C && cp <= 0x1F);
  return cp == 0x85 || cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 ||
         cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

bool is_printable(char32_t cp) {
  if (cp < 0x20 || cp == 0x7F) return false;
  if (cp < 0x7F) return true;
  if (cp <= 0xA0 || cp == 0xAD) return false;
  if (cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202F) ||
      (cp >= 0x205F && cp <= 0x206F) || cp == 0x3000 || cp == 0xFEFF || (cp >= 0xD800 && cp <= 0xDFFF) ||
      (cp >= 0xE000 && cp <= 0xF8FF) || (cp >= 0xFFF9 && cp <= 0xFFFB) || cp == 0xFFFE || cp == 0xFFFF)
    return false;
  return cp <= 0x10FFFF;
}

namespace {
locale_t utf8_locale() {
  static locale_t locale = [] {
    locale_t l = newlocale(LC_CTYPE_MASK, "C.UTF-8", static_cast<locale_t>(0));
    if (l == static_cast<locale_t>(0)) l = newlocale(LC_CTYPE_MASK, "C", static_cast<locale_t>(0));
    return l;
  }();
  return locale;
}
}  // namespace

bool is_alpha(char32_t cp) {
  if (cp < 0x80) return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z');
  return iswalpha_l(static_cast<wint_t>(cp), utf8_locale());
}
namespace {
bool is_other_id_start(char32_t cp) {
  return cp == 0x1885 || cp == 0x1886 || cp == 0x2118 || cp == 0x212E || cp == 0x309B || cp == 0x309C;
}
bool is_other_id_continue(char32_t cp) {
  return cp == 0xB7 || cp == 0x387 || (cp >= 0x1369 && cp <= 0x1371) || cp == 0x19DA;
}
bool is_combining_mark(char32_t cp) {
  return (cp >= 0x300 && cp <= 0x36F) || (cp >= 0x1AB0 && cp <= 0x1AFF) || (cp >= 0x1DC0 && cp <= 0x1DFF) ||
         (cp >= 0x20D0 && cp <= 0x20FF) || (cp >= 0xFE20 && cp <= 0xFE2F);
}
}  // namespace

bool is_word_char(char32_t cp) { return cp == '_' || (cp >= '0' && cp <= '9') || is_alpha(cp); }

std::u32string to_code_points(std::string_view text) {
  std::u32string out;
  for (size_t pos = 0; pos < text.size();) out += decode_utf8(text, pos);
  return out;
}

std::string to_utf8(const std::u32string& text) {
  std::string out;
  for (char32_t cp : text) append_utf8(out, cp);
  return out;
}

bool is_identifier_start(char32_t cp) { return cp == '_' || is_alpha(cp) || is_other_id_start(cp); }
bool is_identifier_continue(char32_t cp) {
  return is_identifier_start(cp) || (cp >= '0' && cp <= '9') || is_other_id_continue(cp) || is_combining_mark(cp);
}

bool is_lower_cp(char32_t cp) {
  if (cp < 0x80) return cp >= 'a' && cp <= 'z';
  return iswlower_l(static_cast<wint_t>(cp), utf8_locale());
}
bool is_upper_cp(char32_t cp) {
  if (cp < 0x80) return cp >= 'A' && cp <= 'Z';
  return iswupper_l(static_cast<wint_t>(cp), utf8_locale());
}
bool is_cased(char32_t cp) { return is_lower_cp(cp) || is_upper_cp(cp); }

namespace {

// Unconditional full case mappings from SpecialCasing.txt that Python applies and
// towupper cannot express (one code point becomes several).
const char* special_upper(char32_t cp) {
  switch (cp) {
    case 0xDF: return "SS";
    case 0x149: return "\xCA\xBCN";                       // ŉ → ʼN
    case 0x1F0: return "J\xCC\x8C";                       // ǰ → J̌
    case 0x390: return "\xCE\x99\xCC\x88\xCC\x81";        // ΐ → Ϊ́
    case 0x3B0: return "\xCE\xA5\xCC\x88\xCC\x81";        // ΰ → Ϋ́
    case 0x587: return "\xD4\xB5\xD5\x92";                // և → ԵՒ
    case 0xFB00: return "FF";
    case 0xFB01: return "FI";
    case 0xFB02: return "FL";
    case 0xFB03: return "FFI";
    case 0xFB04: return "FFL";
    case 0xFB05: case 0xFB06: return "ST";
    default: return nullptr;
  }
}

// Title-case forms of the same characters (str.title() and str.capitalize()).
const char* special_title(char32_t cp) {
  switch (cp) {
    case 0xDF: return "Ss";
    case 0x587: return "\xD4\xB5\xD6\x82";                // և → Եւ
    case 0xFB00: return "Ff";
    case 0xFB01: return "Fi";
    case 0xFB02: return "Fl";
    case 0xFB03: return "Ffi";
    case 0xFB04: return "Ffl";
    case 0xFB05: case 0xFB06: return "St";
    case 0x149: case 0x1F0: case 0x390: case 0x3B0: return special_upper(cp);
    default: return nullptr;
  }
}

bool next_is_cased(std::string_view text, size_t pos) {
  if (pos >= text.size()) return false;
  return is_cased(decode_utf8(text, pos));
}

}  // namespace

void append_upper(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp >= 'a' && cp <= 'z' ? cp - 32 : cp);
    return;
  }
  if (const char* expanded = special_upper(cp)) {
    out += expanded;
    return;
  }
  append_utf8(out, static_cast<char32_t>(towupper_l(static_cast<wint_t>(cp), utf8_locale())));
}

void append_title(std::string& out, char32_t cp) {
  if (const char* expanded = special_title(cp)) {
    out += expanded;
    return;
  }
  // Digraphs whose title case is neither the upper nor the lower form (DŽ Dž dž …).
  if (cp >= 0x1C4 && cp <= 0x1CC) append_utf8(out, 0x1C5 + 3 * ((cp - 0x1C4) / 3));
  else if (cp >= 0x1F1 && cp <= 0x1F3) append_utf8(out, 0x1F2);
  else append_upper(out, cp);
}

void append_lower(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp >= 'A' && cp <= 'Z' ? cp + 32 : cp);
    return;
  }
  if (cp == 0x130) { out += "i\xCC\x87"; return; }
  append_utf8(out, static_cast<char32_t>(towlower_l(static_cast<wint_t>(cp), utf8_locale())));
}

std::string to_upper(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t pos = 0; pos < text.size();) append_upper(out, decode_utf8(text, pos));
  return out;
}

std::string to_lower(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool after_cased = false;
  for (size_t pos = 0; pos < text.size();) {
    char32_t cp = decode_utf8(text, pos);
    if (cp == 0x3A3 && after_cased && !next_is_cased(text, pos)) {
      out += "\xCF\x82";  // final sigma: Python lowers a word-final capital sigma to ς
    } else {
      append_lower(out, cp);
    }
    after_cased = is_cased(cp);
  }
  return out;
}

size_t code_point_count(std::string_view text) {
  size_t count = 0;
  for (unsigned char c : text)
    if ((c & 0xC0) != 0x80) ++count;
  return count;
}

std::vector<std::string_view> split_code_points(std::string_view text) {
  // 16 bytes for every character, and often a 40-byte value after that: refused for a long string.
  require_result_size(text.size(), sizeof(std::string_view));
  std::vector<std::string_view> out;
  out.reserve(text.size());
  for (size_t pos = 0; pos < text.size();) {
    size_t start = pos;
    decode_utf8(text, pos);
    out.push_back(text.substr(start, pos - start));
  }
  return out;
}

size_t byte_offset_of(std::string_view text, size_t index) {
  size_t pos = 0;
  for (size_t i = 0; i < index && pos < text.size(); ++i) decode_utf8(text, pos);
  return pos;
}

namespace {
// Start of the last code point before `end`.
size_t previous_start(std::string_view text, size_t end) {
  size_t start = end - 1;
  while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80 && end - start < 4) --start;
  return start;
}
}  // namespace

std::string_view lstrip_space(std::string_view text) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t next = pos;
    if (!is_space(decode_utf8(text, next))) break;
    pos = next;
  }
  return text.substr(pos);
}

std::string_view rstrip_space(std::string_view text) {
  size_t end = text.size();
  while (end > 0) {
    size_t start = previous_start(text, end);
    size_t probe = start;
    char32_t cp = decode_utf8(text, probe);
    if (probe != end || !is_space(cp)) break;
    end = start;
  }
  return text.substr(0, end);
}

std::string_view strip_space(std::string_view text) { return rstrip_space(lstrip_space(text)); }

std::string_view strip_chars(std::string_view text, std::string_view chars, bool left, bool right) {
  std::vector<char32_t> set;
  for (size_t pos = 0; pos < chars.size();) set.push_back(decode_utf8(chars, pos));
  auto in_set = [&](char32_t cp) {
    for (char32_t c : set)
      if (c == cp) return true;
    return false;
  };
  if (left) {
    size_t pos = 0;
    while (pos < text.size()) {
      size_t next = pos;
      if (!in_set(decode_utf8(text, next))) break;
      pos = next;
    }
    text.remove_prefix(pos);
  }
  if (right) {
    size_t end = text.size();
    while (end > 0) {
      size_t start = previous_start(text, end);
      size_t probe = start;
      char32_t cp = decode_utf8(text, probe);
      if (probe != end || !in_set(cp)) break;
      end = start;
    }
    text = text.substr(0, end);
  }
  return text;
}

std::vector<std::string_view> split_lines(std::string_view text, bool keep_ends) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    // Printable ASCII, the common case, is never a boundary.
    pos = static_cast<size_t>(find_ascii_stop<true>(text.data() + pos, text.data() + text.size()) - text.data());
    if (pos == text.size()) break;
    size_t here = pos;
    char32_t cp = decode_utf8(text, pos);
    bool boundary = cp == '\n' || cp == '\r' || cp == 0x0B || cp == 0x0C || (cp >= 0x1C && cp <= 0x1E) ||
                    cp == 0x85 || cp == 0x2028 || cp == 0x2029;
    if (!boundary) continue;
    if (cp == '\r' && pos < text.size() && text[pos] == '\n') ++pos;
    lines.push_back(text.substr(start, (keep_ends ? pos : here) - start));
    require_result_size(lines.size(), sizeof(std::string_view));  // "\n" * 200000000
    start = pos;
  }
  if (start < text.size()) lines.push_back(text.substr(start));
  return lines;
}

}  // namespace gkebuild::jinja
