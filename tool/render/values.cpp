#include "render/values.h"

#include "base/error.h"
#include "yamlfile/document.h"
#include "yamlfile/scalars.h"
#include "yamlfile/to_json.h"

namespace gkebuild::render {

void merge_values(nlohmann::ordered_json& base, const nlohmann::ordered_json& overlay) {
  if (!base.is_object() || !overlay.is_object()) {
    base = overlay;
    return;
  }
  for (const auto& [key, value] : overlay.items()) {
    if (base.contains(key)) merge_values(base[key], value);
    else base[key] = value;
  }
}

nlohmann::ordered_json load_values_file(const std::filesystem::path& path) {
  const auto doc = yamlfile::Document::load(path);
  if (doc.root().IsNull()) return nlohmann::ordered_json::object();
  if (!doc.root().IsMap())
    doc.fail(doc.root(), "a values file must be a mapping at the top, got " + yamlfile::describe(doc.root()));
  return yamlfile::to_json(doc.root());
}

void apply_set(nlohmann::ordered_json& values, const Assignment& assignment) {
  const auto& [path, value] = assignment;
  nlohmann::ordered_json* node = &values;
  size_t start = 0;
  while (true) {
    size_t dot = path.find('.', start);
    std::string key = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (key.empty()) throw Error(ErrorKind::kBadInput, "empty key in '" + path + "' (keys may be dotted: a.b=1)");
    if (!node->is_object()) *node = nlohmann::ordered_json::object();
    node = &(*node)[key];
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  *node = yamlfile::scalar_to_json(value);
}

nlohmann::ordered_json load_values(const std::vector<std::filesystem::path>& files,
                                   const std::vector<Assignment>& assignments) {
  auto values = nlohmann::ordered_json::object();
  for (const auto& file : files) merge_values(values, load_values_file(file));
  for (const auto& assignment : assignments) apply_set(values, assignment);
  return values;
}

}  // namespace gkebuild::render
