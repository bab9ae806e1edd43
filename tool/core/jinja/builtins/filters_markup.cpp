// HTML filters: forceescape, striptags, xmlattr and urlize, as Jinja2 3.1 and MarkupSafe
// write them.
#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

#include "tool/core/jinja/builtins/filters.h"
#include "tool/core/jinja/runtime/interpreter.h"
#include "tool/core/jinja/values/unicode.h"

namespace gkebuild::jinja {

namespace {

// ---- html.unescape -------------------------------------------------------------------

// The named references HTML5 also accepts without ';' (Latin-1 and XML's), each one code
// point. Every other name needs the whole HTML5 table, which gkebuild does not carry.
struct NamedReference {
  std::string_view name;
  char32_t code_point;
};
constexpr NamedReference kLegacyReferences[] = {
    {"AElig", 0xC6}, {"AMP", 0x26}, {"Aacute", 0xC1}, {"Acirc", 0xC2}, {"Agrave", 0xC0}, {"Aring", 0xC5},
    {"Atilde", 0xC3}, {"Auml", 0xC4}, {"COPY", 0xA9}, {"Ccedil", 0xC7}, {"ETH", 0xD0}, {"Eacute", 0xC9},
    {"Ecirc", 0xCA}, {"Egrave", 0xC8}, {"Euml", 0xCB}, {"GT", 0x3E}, {"Iacute", 0xCD}, {"Icirc", 0xCE},
    {"Igrave", 0xCC}, {"Iuml", 0xCF}, {"LT", 0x3C}, {"Ntilde", 0xD1}, {"Oacute", 0xD3}, {"Ocirc", 0xD4},
    {"Ograve", 0xD2}, {"Oslash", 0xD8}, {"Otilde", 0xD5}, {"Ouml", 0xD6}, {"QUOT", 0x22}, {"REG", 0xAE},
    {"THORN", 0xDE}, {"Uacute", 0xDA}, {"Ucirc", 0xDB}, {"Ugrave", 0xD9}, {"Uuml", 0xDC}, {"Yacute", 0xDD},
    {"aacute", 0xE1}, {"acirc", 0xE2}, {"acute", 0xB4}, {"aelig", 0xE6}, {"agrave", 0xE0}, {"amp", 0x26},
    {"aring", 0xE5}, {"atilde", 0xE3}, {"auml", 0xE4}, {"brvbar", 0xA6}, {"ccedil", 0xE7}, {"cedil", 0xB8},
    {"cent", 0xA2}, {"copy", 0xA9}, {"curren", 0xA4}, {"deg", 0xB0}, {"divide", 0xF7}, {"eacute", 0xE9},
    {"ecirc", 0xEA}, {"egrave", 0xE8}, {"eth", 0xF0}, {"euml", 0xEB}, {"frac12", 0xBD}, {"frac14", 0xBC},
    {"frac34", 0xBE}, {"gt", 0x3E}, {"iacute", 0xED}, {"icirc", 0xEE}, {"iexcl", 0xA1}, {"igrave", 0xEC},
    {"iquest", 0xBF}, {"iuml", 0xEF}, {"laquo", 0xAB}, {"lt", 0x3C}, {"macr", 0xAF}, {"micro", 0xB5},
    {"middot", 0xB7}, {"nbsp", 0xA0}, {"not", 0xAC}, {"ntilde", 0xF1}, {"oacute", 0xF3}, {"ocirc", 0xF4},
    {"ograve", 0xF2}, {"ordf", 0xAA}, {"ordm", 0xBA}, {"oslash", 0xF8}, {"otilde", 0xF5}, {"ouml", 0xF6},
    {"para", 0xB6}, {"plusmn", 0xB1}, {"pound", 0xA3}, {"quot", 0x22}, {"raquo", 0xBB}, {"reg", 0xAE},
    {"sect", 0xA7}, {"shy", 0xAD}, {"sup1", 0xB9}, {"sup2", 0xB2}, {"sup3", 0xB3}, {"szlig", 0xDF},
    {"thorn", 0xFE}, {"times", 0xD7}, {"uacute", 0xFA}, {"ucirc", 0xFB}, {"ugrave", 0xF9}, {"uml", 0xA8},
    {"uuml", 0xFC}, {"yacute", 0xFD}, {"yen", 0xA5}, {"yuml", 0xFF},
};

const NamedReference* find_legacy(std::string_view name) {
  for (const NamedReference& entry : kLegacyReferences)
    if (entry.name == name) return &entry;
  return nullptr;
}

// Windows-1252 for the C1 range, as html.unescape maps &#128; … &#159;.
constexpr char32_t kCp1252[32] = {
    0x20AC, 0x81,   0x201A, 0x192,  0x201E, 0x2026, 0x2020, 0x2021, 0x2C6,  0x2030, 0x160,
    0x2039, 0x152,  0x8D,   0x17D,  0x8F,   0x90,   0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x2DC,  0x2122, 0x161,  0x203A, 0x153,  0x9D,   0x17E,  0x178,
};

// html.unescape's treatment of &#num;: replacements, then dropped code points.
void append_numeric_reference(std::string& out, uint64_t number) {
  if (number == 0) return append_utf8(out, 0xFFFD);
  if (number == 0x0D) return out.push_back('\r');
  if (number >= 0x80 && number <= 0x9F) return append_utf8(out, kCp1252[number - 0x80]);
  if ((number >= 0xD800 && number <= 0xDFFF) || number > 0x10FFFF) return append_utf8(out, 0xFFFD);
  bool invalid = (number >= 0x1 && number <= 0x8) || number == 0xB || (number >= 0xE && number <= 0x1F) ||
                 (number >= 0x7F && number <= 0x9F) || (number >= 0xFDD0 && number <= 0xFDEF) ||
                 (number & 0xFFFE) == 0xFFFE;
  if (!invalid) append_utf8(out, static_cast<char32_t>(number));
}

bool is_hex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }
bool is_decimal(char c) { return c >= '0' && c <= '9'; }

// Reads &#123; / &#x7b; (the ';' optional) at text[pos] == '&'; returns the length read, 0 if none.
size_t read_numeric_reference(std::string_view text, size_t pos, std::string& out) {
  size_t i = pos + 2;
  bool hex = i < text.size() && (text[i] == 'x' || text[i] == 'X');
  if (hex) ++i;
  size_t digits_start = i;
  uint64_t number = 0;
  while (i < text.size() && (hex ? is_hex(text[i]) : is_decimal(text[i]))) {
    int digit = is_decimal(text[i]) ? text[i] - '0' : (std::tolower(static_cast<unsigned char>(text[i])) - 'a' + 10);
    number = std::min<uint64_t>(number * (hex ? 16 : 10) + static_cast<uint64_t>(digit), 0x110000);
    ++i;
  }
  if (i == digits_start) return 0;
  if (i < text.size() && text[i] == ';') ++i;
  append_numeric_reference(out, number);
  return i - pos;
}

// Reads a named reference at text[pos] == '&' as html.unescape does: the whole name when it
// is known, else the longest known legacy prefix. Returns the length read, 0 to keep the '&'.
size_t read_named_reference(std::string_view text, size_t pos, std::string& out) {
  size_t end = pos + 1;
  auto in_name = [](char c) { return std::string_view("\t\n\f <&#;").find(c) == std::string_view::npos; };
  while (end < text.size() && end - pos - 1 < 32 && in_name(text[end])) ++end;
  if (end == pos + 1) return 0;
  std::string_view name = text.substr(pos + 1, end - pos - 1);
  bool semicolon = end < text.size() && text[end] == ';';
  if (const NamedReference* known = find_legacy(name)) {
    append_utf8(out, known->code_point);
    return name.size() + 1 + (semicolon ? 1 : 0);
  }
  if (semicolon && name == "apos") {
    out += '\'';
    return name.size() + 2;
  }
  // Every HTML5 name is a letter and then letters or digits; any other name is not one.
  auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  bool could_be_html5 = std::isalpha(static_cast<unsigned char>(name[0])) && std::all_of(name.begin(), name.end(), alnum);
  if (semicolon && could_be_html5)
    throw EvalError("the character reference &" + std::string(name) +
                    "; is not supported (gkebuild knows the Latin-1 and XML names and numeric references)");
  for (size_t length = name.size() - 1; length >= 2; --length) {
    if (const NamedReference* known = find_legacy(name.substr(0, length))) {
      append_utf8(out, known->code_point);
      return length + 1;
    }
  }
  return 0;
}

std::string html_unescape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t pos = 0; pos < text.size();) {
    if (text[pos] != '&') {
      out += text[pos++];
      continue;
    }
    size_t used = pos + 1 < text.size() && text[pos + 1] == '#' ? read_numeric_reference(text, pos, out)
                                                                   : read_named_reference(text, pos, out);
    if (used == 0) out += text[pos++];
    pos += used;
  }
  return out;
}

// ---- striptags -------------------------------------------------------------------------

// The first `needle` at or after `from` in the concatenation a + b (npos if none).
size_t find_joined(std::string_view a, std::string_view b, std::string_view needle, size_t from) {
  auto at = [&](size_t i) { return i < a.size() ? a[i] : b[i - a.size()]; };
  for (size_t p = from; p < a.size(); ++p) {
    bool match = p + needle.size() <= a.size() + b.size();
    for (size_t k = 0; match && k < needle.size(); ++k) match = at(p + k) == needle[k];
    if (match) return p;
  }
  size_t found = b.find(needle, from > a.size() ? from - a.size() : 0);
  return found == std::string_view::npos ? found : a.size() + found;
}

// MarkupSafe removes each "<!-- … -->" again and again from the start of the string, so a
// removal can join "<!" and "--" into a new comment start; this does the same in one pass.
std::string remove_comments(std::string_view text) {
  std::string out;
  std::string_view rest = text;
  while (true) {
    size_t start = find_joined(out, rest, "<!--", out.size() >= 3 ? out.size() - 3 : 0);
    size_t end = start == std::string_view::npos ? start : find_joined(out, rest, "-->", start);
    if (end == std::string_view::npos) break;
    size_t consumed = end + 3 - out.size();  // a match always reaches into rest
    if (start >= out.size()) out += rest.substr(0, start - out.size());
    else out.resize(start);
    rest.remove_prefix(consumed);
  }
  out += rest;
  return out;
}

std::string remove_tags(std::string_view text) {
  std::string out;
  size_t pos = 0;
  while (true) {
    size_t open = text.find('<', pos);
    size_t close = open == std::string_view::npos ? open : text.find('>', open);
    if (close == std::string_view::npos) break;
    out += text.substr(pos, open - pos);
    pos = close + 1;
  }
  out += text.substr(pos);
  return out;
}

// " ".join(text.split()): words split at any Unicode whitespace.
std::string collapse_whitespace(std::string_view text) {
  std::string out;
  bool pending_space = false;
  for (size_t pos = 0; pos < text.size();) {
    size_t start = pos;
    if (is_space(decode_utf8(text, pos))) {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out += ' ';
    pending_space = false;
    out += text.substr(start, pos - start);
  }
  return out;
}

Value f_striptags(Interpreter& in, const Value& v, CallArgs& a) {
  a.bind("striptags", {});
  return Value::string(html_unescape(collapse_whitespace(remove_tags(remove_comments(in.str(v))))));
}

Value f_forceescape(Interpreter& in, const Value& v, CallArgs& a) {
  a.bind("forceescape", {});
  return Value::markup(html_escape(in.str(v)));  // escapes Markup too: that is its point
}

// markupsafe.escape(): Markup stays as it is, anything else is str()-ed and escaped.
std::string escape_unless_markup(Interpreter& in, const Value& v) {
  return v.is_markup() ? std::string(v.str()) : html_escape(in.str(v));
}

// ---- xmlattr -------------------------------------------------------------------------

Value f_xmlattr(Interpreter& in, const Value& v, CallArgs& a) {
  Bound b = a.bind("xmlattr", {"autospace"});
  bool autospace = arg_bool(b[0], true);
  in.require_defined(v);
  if (!v.is_mapping()) throw EvalError("'" + std::string(type_name(v)) + "' object has no attribute 'items'");
  std::string out;
  mapping_for_each(v, [&](const Value& key, const Value& value) {
    if (value.is_none() || value.is_undefined()) return;
    if (!key.is_str())
      throw EvalError("expected string or bytes-like object, got '" + std::string(type_name(key)) + "'");
    // Whitespace, '/', '>' or '=' in a name would let a value inject further attributes.
    if (key.str().find_first_of(" \t\n\r\f\v/>=") != std::string_view::npos)
      throw EvalError("Invalid character in attribute name: " + repr(key));
    if (!out.empty()) out += ' ';
    out += escape_unless_markup(in, key) + "=\"" + escape_unless_markup(in, value) + '"';
  });
  if (autospace && !out.empty()) out.insert(0, " ");
  return Value::string(std::move(out));
}

// ---- urlize --------------------------------------------------------------------------

using Text = std::u32string;

bool is_ascii_letter(char32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_host_char(char32_t c) { return is_word_char(c) || c == '%' || c == '-' || c == '.'; }

bool starts_with_nocase(const Text& text, size_t pos, std::string_view prefix) {
  if (text.size() - std::min(pos, text.size()) < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    char32_t c = text[pos + i];
    if (c < 0x80 && std::tolower(static_cast<int>(c)) != prefix[i]) return false;
    if (c >= 0x80) return false;
  }
  return true;
}

std::vector<Text> split_on(const Text& text, char32_t separator) {
  std::vector<Text> parts(1);
  for (char32_t c : text) {
    if (c == separator) parts.emplace_back();
    else parts.back() += c;
  }
  return parts;
}

// The end of the URL: `(?::\d{1,5})?(?:[/?#]\S*)?$` from `pos` (words hold no whitespace).
bool is_url_tail(const Text& text, size_t pos) {
  if (pos < text.size() && text[pos] == ':') {
    size_t digits = 0;
    while (pos + 1 + digits < text.size() && text[pos + 1 + digits] >= '0' && text[pos + 1 + digits] <= '9') ++digits;
    if (digits < 1 || digits > 5) return false;
    pos += 1 + digits;
  }
  return pos == text.size() || text[pos] == '/' || text[pos] == '?' || text[pos] == '#';
}

size_t host_end(const Text& text, size_t pos) {
  while (pos < text.size() && is_host_char(text[pos])) ++pos;
  return pos;
}

// `(([\w%-]+\.)+)?([a-z]{2,63}|xn--[\w%]{2,59})`, the host after a scheme or "www.".
bool is_named_host(const Text& host) {
  std::vector<Text> labels = split_on(host, '.');
  for (size_t i = 0; i + 1 < labels.size(); ++i)
    if (labels[i].empty()) return false;
  const Text& tld = labels.back();
  if (tld.size() >= 2 && tld.size() <= 63 && std::all_of(tld.begin(), tld.end(), is_ascii_letter)) return true;
  if (!starts_with_nocase(tld, 0, "xn--") || tld.size() < 6 || tld.size() > 63) return false;
  return std::all_of(tld.begin() + 4, tld.end(), [](char32_t c) { return is_word_char(c) || c == '%'; });
}

// `([\w%-]{2,63}\.)+(com|net|int|edu|gov|org|info|mil)`, a bare domain.
bool is_bare_domain(const Text& host) {
  std::vector<Text> labels = split_on(host, '.');
  if (labels.size() < 2) return false;
  for (size_t i = 0; i + 1 < labels.size(); ++i)
    if (labels[i].size() < 2 || labels[i].size() > 63) return false;
  for (std::string_view tld : {"com", "net", "int", "edu", "gov", "org", "info", "mil"})
    if (labels.back().size() == tld.size() && starts_with_nocase(labels.back(), 0, tld)) return true;
  return false;
}

bool is_ipv4(const Text& host) {
  std::vector<Text> parts = split_on(host, '.');
  if (parts.size() != 4) return false;
  auto is_digit = [](char32_t c) { return c >= '0' && c <= '9'; };
  for (const Text& part : parts)
    if (part.empty() || part.size() > 3 || !std::all_of(part.begin(), part.end(), is_digit)) return false;
  return true;
}

bool is_hex_digit(char32_t c) { return c < 0x80 && std::isxdigit(static_cast<int>(c)); }

// `\[([\da-f]{0,4}:){2}([\da-f]{0,4}:?){1,6}]` from text[pos] == '['; returns the end or npos.
size_t ipv6_end(const Text& text, size_t pos) {
  size_t close = text.find(U']', pos);
  if (close == Text::npos) return Text::npos;
  size_t i = pos + 1;
  for (int group = 0; group < 2; ++group) {
    size_t digits = 0;
    while (i < close && is_hex_digit(text[i]) && digits < 4) ++i, ++digits;
    if (i >= close || text[i] != ':') return Text::npos;
    ++i;
  }
  int groups = 0;  // the fewest `[\da-f]{0,4}:?` the rest splits into
  while (i < close) {
    size_t digits = 0;
    while (i < close && is_hex_digit(text[i]) && digits < 4) ++i, ++digits;
    if (i < close && text[i] == ':') ++i;
    else if (digits == 0) return Text::npos;
    ++groups;
  }
  return groups <= 6 ? close + 1 : Text::npos;
}

// Jinja2's _http_re.match().
bool is_http_url(const Text& word) {
  size_t scheme = starts_with_nocase(word, 0, "https://") ? 8 : starts_with_nocase(word, 0, "http://") ? 7 : 0;
  size_t after_www = scheme == 0 && starts_with_nocase(word, 0, "www.") ? 4 : scheme;
  if (after_www > 0) {
    size_t end = host_end(word, after_www);
    if (is_named_host(word.substr(after_www, end - after_www)) && is_url_tail(word, end)) return true;
  }
  size_t end = host_end(word, 0);
  if (is_bare_domain(word.substr(0, end)) && is_url_tail(word, end)) return true;
  if (scheme == 0) return false;
  end = host_end(word, scheme);
  if (is_ipv4(word.substr(scheme, end - scheme)) && is_url_tail(word, end)) return true;
  if (scheme < word.size() && word[scheme] == '[') {
    size_t close = ipv6_end(word, scheme);
    return close != Text::npos && is_url_tail(word, close);
  }
  return false;
}

// Jinja2's _email_re: `^\S+@\w[\w.-]*\.\w+$`.
bool is_email(const Text& word) {
  size_t at = word.rfind(U'@');
  if (at == Text::npos || at == 0) return false;
  Text domain = word.substr(at + 1);
  if (domain.empty() || !is_word_char(domain[0])) return false;
  if (!std::all_of(domain.begin(), domain.end(), [](char32_t c) { return is_word_char(c) || c == '.' || c == '-'; }))
    return false;
  size_t dot = domain.rfind(U'.');
  return dot != Text::npos && dot >= 1 && dot + 1 < domain.size() &&
         std::all_of(domain.begin() + static_cast<std::ptrdiff_t>(dot) + 1, domain.end(), is_word_char);
}

bool starts_with(const Text& text, const Text& prefix) { return text.compare(0, prefix.size(), prefix) == 0; }
bool ends_with(const Text& text, const Text& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

size_t count(const Text& text, const Text& needle) {
  size_t n = 0;
  for (size_t pos = text.find(needle); pos != Text::npos; pos = text.find(needle, pos + needle.size())) ++n;
  return n;
}

struct UrlizeOptions {
  std::optional<int64_t> trim_url_limit;
  std::string rel_attr;
  std::string target_attr;
  std::vector<Text> extra_schemes;
};

Text trim_url(const Text& url, const UrlizeOptions& options) {
  if (!options.trim_url_limit || static_cast<int64_t>(url.size()) <= *options.trim_url_limit) return url;
  int64_t limit = *options.trim_url_limit;
  // x[:limit] with Python's negative indexes.
  size_t keep = limit >= 0 ? static_cast<size_t>(limit)
                           : url.size() - std::min(url.size(), static_cast<size_t>(-limit));
  return url.substr(0, keep) + U"...";
}

// One whitespace-free word of jinja2.utils.urlize: leading and trailing punctuation split off,
// brackets rebalanced, then the middle made a link when it looks like one.
Text urlize_word(const Text& word, const UrlizeOptions& options) {
  Text head, middle = word, tail;
  while (true) {
    if (!middle.empty() && (middle[0] == '(' || middle[0] == '<')) head += middle[0], middle.erase(0, 1);
    else if (starts_with(middle, U"&lt;")) head += U"&lt;", middle.erase(0, 4);
    else break;
  }
  while (true) {
    if (ends_with(middle, U"&gt;")) tail.insert(0, U"&gt;"), middle.resize(middle.size() - 4);
    else if (!middle.empty() && Text(U")>.,\n").find(middle.back()) != Text::npos)
      tail.insert(tail.begin(), middle.back()), middle.pop_back();
    else break;
  }
  for (auto [open, close] : {std::pair<Text, Text>{U"(", U")"}, {U"<", U">"}, {U"&lt;", U"&gt;"}}) {
    size_t opened = count(middle, open);
    if (opened <= count(middle, close)) continue;
    for (size_t moves = std::min(opened, count(tail, close)); moves > 0; --moves) {
      size_t end = tail.find(close) + close.size();
      middle += tail.substr(0, end);
      tail.erase(0, end);
    }
  }
  const std::string attrs_utf8 = options.rel_attr + options.target_attr;
  const Text attrs = to_code_points(attrs_utf8);
  if (is_http_url(middle)) {
    Text href = starts_with(middle, U"https://") || starts_with(middle, U"http://") ? middle : U"https://" + middle;
    middle = U"<a href=\"" + href + U"\"" + attrs + U">" + trim_url(middle, options) + U"</a>";
  } else if (starts_with(middle, U"mailto:") && is_email(middle.substr(7))) {
    middle = U"<a href=\"" + middle + U"\">" + middle.substr(7) + U"</a>";
  } else if (middle.find(U'@') != Text::npos && !starts_with(middle, U"www.") && !starts_with(middle, U"@") &&
             middle.find(U':') == Text::npos && is_email(middle)) {
    middle = U"<a href=\"mailto:" + middle + U"\">" + middle + U"</a>";
  } else {
    for (const Text& scheme : options.extra_schemes)
      if (middle != scheme && starts_with(middle, scheme))
        middle = U"<a href=\"" + middle + U"\"" + attrs + U">" + middle + U"</a>";
  }
  return head + middle + tail;
}

// `^([\w.+-]{2,}:(/){0,2})$`, what extra_schemes accepts.
bool is_scheme_prefix(const Text& scheme) {
  size_t colon = scheme.find(U':');
  if (colon == Text::npos || colon < 2) return false;
  if (!std::all_of(scheme.begin(), scheme.begin() + static_cast<std::ptrdiff_t>(colon),
                   [](char32_t c) { return is_word_char(c) || c == '.' || c == '+' || c == '-'; }))
    return false;
  size_t slashes = scheme.size() - colon - 1;
  return slashes <= 2 && std::all_of(scheme.begin() + static_cast<std::ptrdiff_t>(colon) + 1, scheme.end(),
                                     [](char32_t c) { return c == '/'; });
}

UrlizeOptions urlize_options(Interpreter& in, const Bound& b) {
  UrlizeOptions options;
  if (b[0] && !b[0]->is_none()) options.trim_url_limit = arg_int(b[0], 0, "trim_url_limit");
  std::set<std::string> rel;  // sorted, as Jinja2 joins them
  if (b[3] && truthy(*b[3])) {
    std::string text = in.str(*b[3]);
    for (size_t pos = 0; pos < text.size();) {
      std::string word;
      while (pos < text.size()) {
        size_t start = pos;
        if (is_space(decode_utf8(text, pos))) break;
        word += text.substr(start, pos - start);
      }
      if (!word.empty()) rel.insert(word);
    }
  }
  if (arg_bool(b[1], false)) rel.insert("nofollow");
  rel.insert("noopener");  // Jinja2's default policy urlize.rel
  std::string joined;
  for (const std::string& part : rel) joined += (joined.empty() ? "" : " ") + part;
  options.rel_attr = " rel=\"" + html_escape(joined) + "\"";
  if (b[2] && truthy(*b[2])) options.target_attr = " target=\"" + escape_unless_markup(in, *b[2]) + "\"";
  if (b[4] && !b[4]->is_none()) {
    for (const Value& scheme : to_vector(*b[4])) {
      Text text = to_code_points(in.str(scheme));
      if (!is_scheme_prefix(text)) throw EvalError(repr(scheme) + " is not a valid URI scheme prefix.");
      options.extra_schemes.push_back(std::move(text));
    }
  }
  return options;
}

Value f_urlize(Interpreter& in, const Value& v, CallArgs& a) {
  Bound b = a.bind("urlize", {"trim_url_limit", "nofollow", "target", "rel", "extra_schemes"});
  UrlizeOptions options = urlize_options(in, b);
  Text text = to_code_points(escape_unless_markup(in, v));
  Text out;
  // re.split(r"(\s+)"): whitespace runs pass through, each word between them is urlized.
  for (size_t pos = 0; pos < text.size();) {
    size_t end = pos;
    bool space = is_space(text[pos]);
    while (end < text.size() && is_space(text[end]) == space) ++end;
    Text piece = text.substr(pos, end - pos);
    out += space ? piece : urlize_word(piece, options);
    pos = end;
  }
  return Value::string(to_utf8(out));
}

}  // namespace

const std::vector<FilterEntry>& markup_filters() {
  using enum Effect;  // none of these keeps state
  static const std::vector<FilterEntry> filters = {
      {"forceescape", f_forceescape, ReadsOnly}, {"striptags", f_striptags, ReadsOnly},
      {"xmlattr", f_xmlattr, ReadsOnly}, {"urlize", f_urlize, ReadsOnly},
  };
  return filters;
}

}  // namespace gkebuild::jinja
