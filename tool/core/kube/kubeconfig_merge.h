// kubectl's merge of several kubeconfig files: the first file to name an entry
// wins it whole (entries are never merged field by field), and current-context
// comes from the first file that sets it.
#pragma once

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tool/core/yamlfile/document.h"

namespace gkebuild::kube {

struct NamedEntry {
  const yamlfile::Document* document = nullptr;  // the file it came from
  YAML::Node body;                               // the `cluster`/`user`/`context` mapping
  YAML::Node name_node;                          // for positions in messages
};

struct MergedKubeconfig {
  std::vector<std::unique_ptr<yamlfile::Document>> documents;
  std::map<std::string, NamedEntry> clusters;
  std::map<std::string, NamedEntry> users;
  std::map<std::string, NamedEntry> contexts;
  std::string current_context;
};

// `required` files must exist (--kubeconfig); otherwise missing ones are skipped, as
// kubectl skips KUBECONFIG entries that do not exist.
MergedKubeconfig merge_kubeconfigs(const std::vector<std::filesystem::path>& files, bool required);

// The directory relative paths inside `document` are resolved against.
std::filesystem::path base_directory(const yamlfile::Document& document);

}  // namespace gkebuild::kube
