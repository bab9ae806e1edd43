#include "tool/steps/validate/yaml_scalar.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

namespace gkebuild::validate {
namespace {

bool is_one_of(std::string_view text, std::initializer_list<std::string_view> words) {
  for (auto word : words)
    if (text == word) return true;
  return false;
}

std::optional<bool> as_bool(std::string_view t) {
  if (is_one_of(t, {"yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"})) return true;
  if (is_one_of(t, {"no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"})) return false;
  return std::nullopt;
}

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

// Digits (and underscores) in `base`; at least one digit. Large values become doubles.
std::optional<double> parse_digits(std::string_view t, int base) {
  double value = 0;
  bool any = false;
  for (char c : t) {
    if (c == '_') continue;
    int d = digit_value(c);
    if (d >= base) return std::nullopt;
    value = value * base + d;
    any = true;
  }
  if (!any) return std::nullopt;
  return value;
}

// 1:20:30 (base 60), as YAML 1.1 allows for ints.
std::optional<double> parse_sexagesimal(std::string_view t) {
  double value = 0;
  size_t start = 0;
  bool first = true;
  while (start <= t.size()) {
    size_t colon = t.find(':', start);
    auto part = t.substr(start, colon == std::string_view::npos ? std::string_view::npos : colon - start);
    if (part.empty() || (!first && part.size() > 2)) return std::nullopt;
    if (first && part[0] == '0') return std::nullopt;
    auto digits = parse_digits(part, 10);
    if (!digits || (!first && *digits > 59)) return std::nullopt;
    value = value * 60 + *digits;
    first = false;
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  return value;
}

nlohmann::json integer_json(double magnitude, bool negative) {
  if (magnitude <= 9007199254740992.0) {
    auto v = static_cast<std::int64_t>(magnitude);
    return negative ? -v : v;
  }
  return negative ? -magnitude : magnitude;
}

std::optional<nlohmann::json> as_int(std::string_view t) {
  bool negative = false;
  if (!t.empty() && (t[0] == '-' || t[0] == '+')) {
    negative = t[0] == '-';
    t.remove_prefix(1);
  }
  if (t.empty() || digit_value(t[0]) > 9) return std::nullopt;
  std::optional<double> v;
  if (t.starts_with("0b")) v = parse_digits(t.substr(2), 2);
  else if (t.starts_with("0x")) v = parse_digits(t.substr(2), 16);
  else if (t == "0") v = 0;
  else if (t[0] == '0') v = parse_digits(t.substr(1), 8);
  else if (t.find(':') != std::string_view::npos) v = parse_sexagesimal(t);
  else v = parse_digits(t, 10);
  if (!v) return std::nullopt;
  return integer_json(*v, negative);
}

// [-+]?[0-9][0-9_]*\.[0-9_]*([eE][-+][0-9]+)? or [-+]?\.[0-9_]+(...)? plus .inf/.nan.
std::optional<double> as_float(std::string_view t) {
  std::string_view body = t;
  bool negative = false;
  if (!body.empty() && (body[0] == '-' || body[0] == '+')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  if (is_one_of(body, {".inf", ".Inf", ".INF"}))
    return negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  if (is_one_of(t, {".nan", ".NaN", ".NAN"})) return std::numeric_limits<double>::quiet_NaN();
  size_t i = 0;
  auto digits = [&](bool allow_underscore) {
    size_t start = i;
    while (i < body.size() && ((body[i] >= '0' && body[i] <= '9') || (allow_underscore && body[i] == '_'))) ++i;
    return i - start;
  };
  size_t whole = digits(true);
  if (i >= body.size() || body[i] != '.') return std::nullopt;
  if (whole > 0 && body[0] == '_') return std::nullopt;
  ++i;
  size_t fraction = digits(true);
  if (whole == 0 && fraction == 0) return std::nullopt;
  if (i < body.size()) {
    if (body[i] != 'e' && body[i] != 'E') return std::nullopt;
    ++i;
    if (i >= body.size() || (body[i] != '-' && body[i] != '+')) return std::nullopt;
    ++i;
    if (digits(false) == 0 || i != body.size()) return std::nullopt;
  }
  std::string cleaned;
  for (char c : t)
    if (c != '_') cleaned += c;
  return std::strtod(cleaned.c_str(), nullptr);
}

}  // namespace

nlohmann::json resolve_plain_scalar(std::string_view t) {
  if (t.empty() || is_one_of(t, {"~", "null", "Null", "NULL"})) return nullptr;
  char c = t[0];
  bool maybe_typed = (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' ||
                     c == 'y' || c == 'Y' || c == 'n' || c == 'N' || c == 't' || c == 'T' ||
                     c == 'f' || c == 'F' || c == 'o' || c == 'O';
  if (!maybe_typed) return std::string(t);
  if (auto b = as_bool(t)) return *b;
  if (auto i = as_int(t)) return *i;
  if (auto f = as_float(t)) return *f;
  return std::string(t);
}

nlohmann::json resolve_scalar(std::string_view text, std::string_view tag) {
  if (tag == "?") return resolve_plain_scalar(text);
  constexpr std::string_view kCore = "tag:yaml.org,2002:";
  if (!tag.starts_with(kCore)) return std::string(text);
  auto name = tag.substr(kCore.size());
  if (name == "null") return nullptr;
  if (name == "bool") {
    if (auto b = as_bool(text)) return *b;
  } else if (name == "int") {
    if (auto i = as_int(text)) return *i;
  } else if (name == "float") {
    if (auto f = as_float(text)) return *f;
    if (auto i = as_int(text)) return i->get<double>();
  }
  return std::string(text);
}

}  // namespace gkebuild::validate
