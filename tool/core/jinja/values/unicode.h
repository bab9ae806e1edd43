// The bits of Python's str semantics that need code points rather than bytes:
// whitespace, case mapping, length, characters, printability.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gkebuild::jinja {

// Decodes the code point at text[pos] and advances pos (invalid bytes decode as themselves).
char32_t decode_utf8(std::string_view text, size_t& pos);
void append_utf8(std::string& out, char32_t cp);

bool is_space(char32_t cp);        // str.isspace()
bool is_printable(char32_t cp);    // str.isprintable(), for repr()
bool is_alpha(char32_t cp);        // letters (cased or not) for title()/capitalize()
// str.isidentifier() per code point (XID_Start / XID_Continue), approximated from the C
// library's letter class plus Unicode's Other_ID_Start/Other_ID_Continue and combining marks.
bool is_identifier_start(char32_t cp);
bool is_word_char(char32_t cp);  // Python's regular expression \w: letters, digits, '_'
std::u32string to_code_points(std::string_view text);
std::string to_utf8(const std::u32string& text);
bool is_identifier_continue(char32_t cp);
bool is_lower_cp(char32_t cp);
bool is_upper_cp(char32_t cp);
bool is_cased(char32_t cp);

size_t code_point_count(std::string_view text);
std::vector<std::string_view> split_code_points(std::string_view text);

std::string to_upper(std::string_view text);
std::string to_lower(std::string_view text);
void append_upper(std::string& out, char32_t cp);
void append_title(std::string& out, char32_t cp);  // the first letter of str.title()/capitalize()
void append_lower(std::string& out, char32_t cp);

// Python str.strip()/lstrip()/rstrip() with no argument (Unicode whitespace).
std::string_view strip_space(std::string_view text);
std::string_view lstrip_space(std::string_view text);
std::string_view rstrip_space(std::string_view text);
// Python str.strip(chars): removes any of the code points in chars.
std::string_view strip_chars(std::string_view text, std::string_view chars, bool left, bool right);

// Byte offset of the code point with index `index` (clamped to the end).
size_t byte_offset_of(std::string_view text, size_t index);

// str.splitlines() boundaries: \n \r \r\n \v \f \x1c-\x1e \x85 \u2028 \u2029.
std::vector<std::string_view> split_lines(std::string_view text, bool keep_ends);

}  // namespace gkebuild::jinja
