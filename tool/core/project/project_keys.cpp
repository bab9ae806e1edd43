#include "tool/core/project/project_keys.h"

#include <algorithm>

#include "base/printable.h"
#include "base/suggest.h"
#include "tool/core/yamlfile/fields.h"

namespace gkebuild::project {

std::vector<std::string> key_names(ProjectKeys keys) {
  std::vector<std::string> names;
  for (const auto& key : keys) names.emplace_back(key.name);
  return names;
}

const ProjectKey* find_key(ProjectKeys keys, std::string_view name) {
  const auto it = std::find_if(keys.begin(), keys.end(), [&](const ProjectKey& key) { return key.name == name; });
  return it == keys.end() ? nullptr : &*it;
}

// yamlfile::Fields refuses unknown keys too, but cannot say what the suggested key is; a
// misspelt key gets its suggestion's type and meaning here, so the user sees it is the one meant.
void check_keys(ProjectKeys keys, const yamlfile::Document& doc, const YAML::Node& node, const std::string& what) {
  yamlfile::mapping_keys(doc, node, what);  // a mapping, keys plain text and not repeated, as Fields requires first
  if (!node.IsMap()) return;
  const std::vector<std::string> names = key_names(keys);
  for (auto it = node.begin(); it != node.end(); ++it) {
    const std::string key = it->first.Scalar();
    if (find_key(keys, key)) continue;
    std::string message = "unknown key '" + printable(key) + "' in " + what + did_you_mean(key, names);
    if (const auto suggestion = closest_match(key, names)) {
      const ProjectKey& known = *find_key(keys, *suggestion);
      message += ": " + std::string(known.name) + " is " + std::string(known.type) + ", " + std::string(known.meaning);
    }
    doc.fail(it->first, message);
  }
}

}  // namespace gkebuild::project
