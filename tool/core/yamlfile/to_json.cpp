#include "tool/core/yamlfile/to_json.h"

#include <string>

#include "tool/core/yamlfile/scalars.h"

namespace gkebuild::yamlfile {
namespace {

nlohmann::ordered_json typed_scalar(std::string_view text, ScalarKind kind) {
  const ScalarValue value = scalar_value(text, kind);
  switch (value.kind) {
    case ScalarKind::Null: return nullptr;
    case ScalarKind::Bool: return value.boolean;
    case ScalarKind::Integer: return value.integer;
    case ScalarKind::Float: return value.number;
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
  const ScalarKind kind = resolve_command_line_scalar(text);
  return typed_scalar(text, kind);
}

}  // namespace gkebuild::yamlfile
