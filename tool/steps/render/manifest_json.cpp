#include "tool/steps/render/manifest_json.h"

#include <yaml-cpp/yaml.h>

#include "tool/core/yamlfile/to_json.h"

namespace gkebuild::render {

void write_manifest_list_json(std::ostream& out, const std::vector<RenderedFile>& files) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& file : files) {
    if (file.kind != OutputKind::Manifest) continue;
    for (const YAML::Node& document : YAML::LoadAll(file.text))
      if (!document.IsNull()) list.push_back(yamlfile::to_json(document));
  }
  out << list.dump(2) << "\n";
}

}  // namespace gkebuild::render
