#include "tool/core/yamlfile/scalars.h"

#include <cctype>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace gkebuild::yamlfile {
namespace {

bool is_one_of(std::string_view text, std::initializer_list<std::string_view> words) {
  for (auto word : words)
    if (text == word) return true;
  return false;
}

// Hand-written matchers: std::regex took a quarter of the time of reading a large YAML
// values file. The patterns they match are in each comment (tests/tool/steps/render/values_test.cpp
// checks them against std::regex).
bool is_decimal(char c) { return c >= '0' && c <= '9'; }
bool is_octal(char c) { return c >= '0' && c <= '7'; }
bool is_hex(char c) { return is_decimal(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// The number of characters from `at` on that satisfy `is`.
std::size_t run_of(std::string_view text, std::size_t at, bool (*is)(char)) {
  std::size_t end = at;
  while (end < text.size() && is(text[end])) ++end;
  return end - at;
}

// [-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+
bool is_integer(std::string_view text) {
  if (text.size() > 2 && text[0] == '0' && text[1] == 'o') return run_of(text, 2, is_octal) == text.size() - 2;
  if (text.size() > 2 && text[0] == '0' && text[1] == 'x') return run_of(text, 2, is_hex) == text.size() - 2;
  const std::size_t sign = !text.empty() && (text[0] == '+' || text[0] == '-') ? 1 : 0;
  return text.size() > sign && run_of(text, sign, is_decimal) == text.size() - sign;
}

// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)
bool is_float(std::string_view text) {
  if (is_one_of(text, {".nan", ".NaN", ".NAN"})) return true;
  std::size_t at = !text.empty() && (text[0] == '+' || text[0] == '-') ? 1 : 0;
  if (is_one_of(text.substr(at), {".inf", ".Inf", ".INF"})) return true;
  const std::size_t whole = run_of(text, at, is_decimal);
  at += whole;
  if (at < text.size() && text[at] == '.') {
    const std::size_t fraction = run_of(text, at + 1, is_decimal);
    if (whole == 0 && fraction == 0) return false;
    at += 1 + fraction;
  } else if (whole == 0) {
    return false;
  }
  if (at < text.size() && (text[at] == 'e' || text[at] == 'E')) {
    ++at;
    if (at < text.size() && (text[at] == '+' || text[at] == '-')) ++at;
    const std::size_t exponent = run_of(text, at, is_decimal);
    if (exponent == 0) return false;
    at += exponent;
  }
  return at == text.size();
}

bool is_plain(const YAML::Node& node) { return node.Tag() == "?" || node.Tag().empty(); }

[[noreturn]] void expected(const Document& doc, const YAML::Node& node, std::string_view what,
                           std::string_view expectation) {
  doc.fail(node, std::string(what) + ": expected " + std::string(expectation) + ", got " +
                     describe(node));
}

}  // namespace

ScalarKind resolve_scalar(std::string_view text, bool plain) {
  if (!plain) return ScalarKind::String;
  if (is_one_of(text, {"", "~", "null", "Null", "NULL"})) return ScalarKind::Null;
  if (is_one_of(text, {"true", "True", "TRUE", "false", "False", "FALSE"})) return ScalarKind::Bool;
  if (is_integer(text)) return ScalarKind::Integer;
  if (is_float(text)) return ScalarKind::Float;
  return ScalarKind::String;
}

ScalarKind resolve_scalar(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return ScalarKind::Null;
  if (node.Tag() == "tag:yaml.org,2002:str") return ScalarKind::String;
  return resolve_scalar(node.Scalar(), is_plain(node));
}

namespace {
double float_value(std::string_view text) {
  std::string lowered(text);
  for (auto& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lowered == ".nan") return std::numeric_limits<double>::quiet_NaN();
  if (lowered == ".inf" || lowered == "+.inf") return std::numeric_limits<double>::infinity();
  if (lowered == "-.inf") return -std::numeric_limits<double>::infinity();
  try {
    return std::stod(lowered);
  } catch (const std::out_of_range&) {  // 1e999: as large as a double gets, as Python reads it
    return lowered.find("e-") != std::string::npos ? 0.0 : (lowered[0] == '-' ? -HUGE_VAL : HUGE_VAL);
  }
}

// The core schema's three integer forms. Not stoll's base 0, which reads `017` as octal (YAML
// 1.2: decimal 17) and `0o17` as 0.
long long integer_value(std::string_view text) {
  if (text.starts_with("0o")) return std::stoll(std::string(text.substr(2)), nullptr, 8);
  if (text.starts_with("0x")) return std::stoll(std::string(text.substr(2)), nullptr, 16);
  return std::stoll(std::string(text), nullptr, 10);
}

}  // namespace

ScalarValue scalar_value(std::string_view text, ScalarKind kind) {
  ScalarValue value;
  value.kind = kind;
  switch (kind) {
    case ScalarKind::Bool: value.boolean = text[0] == 't' || text[0] == 'T'; break;
    case ScalarKind::Integer:
      try {
        value.integer = integer_value(text);
      } catch (const std::out_of_range&) {
        value.kind = ScalarKind::Float;
        value.number = float_value(text);
      }
      break;
    case ScalarKind::Float: value.number = float_value(text); break;
    case ScalarKind::Null:
    case ScalarKind::String: break;
  }
  return value;
}

ScalarKind resolve_command_line_scalar(std::string_view& text) {
  const bool quoted = text.size() >= 2 && (text.front() == '\'' || text.front() == '"') && text.back() == text.front();
  if (quoted) {
    text = text.substr(1, text.size() - 2);
    return ScalarKind::String;
  }
  if (text.empty()) return ScalarKind::String;
  return resolve_scalar(text, true);
}

std::string describe(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return "null";
  if (node.IsMap()) return "a mapping";
  if (node.IsSequence()) return "a list";
  switch (resolve_scalar(node)) {
    case ScalarKind::Null: return "null";
    case ScalarKind::Bool: return "a boolean (" + node.Scalar() + ")";
    case ScalarKind::Integer: return "an integer (" + node.Scalar() + ")";
    case ScalarKind::Float: return "a number (" + node.Scalar() + ")";
    case ScalarKind::String: break;
  }
  return "a string (\"" + node.Scalar() + "\")";
}

std::string as_string(const Document& doc, const YAML::Node& node, std::string_view what) {
  if (resolve_scalar(node) != ScalarKind::String || !node.IsScalar())
    expected(doc, node, what, "a string");
  return node.Scalar();
}

std::string as_scalar_text(const Document& doc, const YAML::Node& node, std::string_view what) {
  if (!node.IsScalar() || resolve_scalar(node) == ScalarKind::Null)
    expected(doc, node, what, "a string or number");
  return node.Scalar();
}

long long as_integer(const Document& doc, const YAML::Node& node, std::string_view what) {
  if (!node.IsScalar() || resolve_scalar(node) != ScalarKind::Integer)
    expected(doc, node, what, "an integer");
  try {
    return integer_value(node.Scalar());
  } catch (const std::exception&) {
    doc.fail(node, std::string(what) + ": integer out of range");
  }
}

double as_number(const Document& doc, const YAML::Node& node, std::string_view what) {
  auto kind = node.IsScalar() ? resolve_scalar(node) : ScalarKind::Null;
  if (kind != ScalarKind::Integer && kind != ScalarKind::Float) expected(doc, node, what, "a number");
  const ScalarValue value = scalar_value(node.Scalar(), kind);  // yaml-cpp reads no `0o17`
  return value.kind == ScalarKind::Integer ? static_cast<double>(value.integer) : value.number;
}

bool as_bool(const Document& doc, const YAML::Node& node, std::string_view what) {
  if (!node.IsScalar() || resolve_scalar(node) != ScalarKind::Bool)
    expected(doc, node, what, "true or false");
  return node.Scalar()[0] == 't' || node.Scalar()[0] == 'T';
}

std::vector<std::string> as_strings(const Document& doc, const YAML::Node& node,
                                    std::string_view what) {
  if (!node.IsSequence()) expected(doc, node, what, "a list");
  std::vector<std::string> out;
  for (const auto& item : node) out.push_back(as_scalar_text(doc, item, std::string(what) + " item"));
  return out;
}

}  // namespace gkebuild::yamlfile
