#include "yamlfile/to_json.h"

#include <cmath>
#include <limits>
#include <string>

#include "yamlfile/scalars.h"

namespace gkebuild::yamlfile {
namespace {

double float_value(std::string_view text) {
  std::string lowered(text);
  for (auto& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lowered == ".nan") return std::numeric_limits<double>::quiet_NaN();
  if (lowered == ".inf" || lowered == "+.inf") return std::numeric_limits<double>::infinity();
  if (lowered == "-.inf") return -std::numeric_limits<double>::infinity();
  return std::stod(lowered);
}

nlohmann::ordered_json typed_scalar(std::string_view text, ScalarKind kind) {
  switch (kind) {
    case ScalarKind::Null: return nullptr;
    case ScalarKind::Bool: return text[0] == 't' || text[0] == 'T';
    case ScalarKind::Integer:
      try {
        return static_cast<long long>(std::stoll(std::string(text), nullptr, 0));
      } catch (const std::out_of_range&) {
        return float_value(text);
      }
    case ScalarKind::Float: return float_value(text);
    case ScalarKind::String: break;
  }
  return std::string(text);
}

}  // namespace

nlohmann::ordered_json to_json(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return nullptr;
  if (node.IsSequence()) {
    auto array = nlohmann::ordered_json::array();
    for (const auto& item : node) array.push_back(to_json(item));
    return array;
  }
  if (node.IsMap()) {
    auto object = nlohmann::ordered_json::object();
    for (auto it = node.begin(); it != node.end(); ++it) object[it->first.Scalar()] = to_json(it->second);
    return object;
  }
  return typed_scalar(node.Scalar(), resolve_scalar(node));
}

nlohmann::ordered_json scalar_to_json(std::string_view text) {
  bool quoted = text.size() >= 2 && (text.front() == '\'' || text.front() == '"') &&
                text.back() == text.front();
  if (quoted) return std::string(text.substr(1, text.size() - 2));
  auto kind = resolve_scalar(text, true);
  // An empty `--set k=` is the empty string, as Helm reads it, not null.
  if (text.empty()) return std::string();
  return typed_scalar(text, kind);
}

}  // namespace gkebuild::yamlfile
