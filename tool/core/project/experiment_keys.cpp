#include "tool/core/project/experiment_keys.h"

#include <algorithm>

#include "base/printable.h"
#include "base/suggest.h"
#include "tool/core/yamlfile/fields.h"

namespace gkebuild::project {

std::vector<std::string> experiment_key_names() {
  std::vector<std::string> names;
  for (const auto& key : kExperimentKeys) names.emplace_back(key.name);
  return names;
}

const ExperimentKey* find_experiment_key(std::string_view name) {
  const auto* it = std::find_if(kExperimentKeys.begin(), kExperimentKeys.end(),
                                [&](const ExperimentKey& key) { return key.name == name; });
  return it == kExperimentKeys.end() ? nullptr : it;
}

// yamlfile::Fields refuses unknown keys too, but cannot say what the suggested key is; a
// misspelt key gets its suggestion's type and meaning here, so the user sees it is the one meant.
void check_experiment_keys(const yamlfile::Document& doc, const YAML::Node& entry, const std::string& what) {
  yamlfile::mapping_keys(doc, entry, what);  // a mapping, keys plain text and not repeated, as Fields requires first
  if (!entry.IsMap()) return;
  const std::vector<std::string> names = experiment_key_names();
  for (auto it = entry.begin(); it != entry.end(); ++it) {
    const std::string key = it->first.Scalar();
    if (find_experiment_key(key)) continue;
    std::string message = "unknown key '" + printable(key) + "' in " + what + did_you_mean(key, names);
    if (const auto suggestion = closest_match(key, names)) {
      const ExperimentKey& known = *find_experiment_key(*suggestion);
      message += ": " + std::string(known.name) + " is " + std::string(known.type) + ", " + std::string(known.meaning);
    }
    doc.fail(it->first, message);
  }
}

}  // namespace gkebuild::project
