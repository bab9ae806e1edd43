#include "yamlfile/scalars.h"

#include <cctype>
#include <cmath>
#include <limits>
#include <regex>
#include <stdexcept>
#include <string>

namespace gkebuild::yamlfile {
namespace {

bool is_one_of(std::string_view text, std::initializer_list<std::string_view> words) {
  for (auto word : words)
    if (text == word) return true;
  return false;
}

bool is_integer(std::string_view text) {
  static const std::regex pattern("[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+");
  return std::regex_match(text.begin(), text.end(), pattern);
}

bool is_float(std::string_view text) {
  static const std::regex pattern(
      "[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN)");
  return std::regex_match(text.begin(), text.end(), pattern);
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
}  // namespace

ScalarValue scalar_value(std::string_view text, ScalarKind kind) {
  ScalarValue value;
  value.kind = kind;
  switch (kind) {
    case ScalarKind::Bool: value.boolean = text[0] == 't' || text[0] == 'T'; break;
    case ScalarKind::Integer:
      try {
        value.integer = std::stoll(std::string(text), nullptr, 0);
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
    return std::stoll(node.Scalar(), nullptr, 0);
  } catch (const std::exception&) {
    doc.fail(node, std::string(what) + ": integer out of range");
  }
}

double as_number(const Document& doc, const YAML::Node& node, std::string_view what) {
  auto kind = node.IsScalar() ? resolve_scalar(node) : ScalarKind::Null;
  if (kind != ScalarKind::Integer && kind != ScalarKind::Float) expected(doc, node, what, "a number");
  return node.as<double>();
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
