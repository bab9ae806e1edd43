#include "tool/core/kube/kubeconfig_merge.h"

#include "base/printable.h"
#include "base/source_error.h"
#include "tool/core/yamlfile/scalars.h"

namespace gkebuild::kube {
namespace {

// One of the top-level lists (`clusters`, `users`, `contexts`): each item is
// {name, <field>: mapping}; the first file that names an entry keeps it.
void merge_list(const yamlfile::Document& doc, const std::string& list_key,
                const std::string& field, std::map<std::string, NamedEntry>& into) {
  const YAML::Node list = doc.root()[list_key];
  if (!list || list.IsNull()) return;
  if (!list.IsSequence())
    doc.fail(list, in_quotes(list_key) + " must be a list, got " + yamlfile::describe(list));
  for (const YAML::Node& item : list) {
    if (!item.IsMap())
      doc.fail(item, "each entry of " + in_quotes(list_key) + " must be a mapping, got " +
                         yamlfile::describe(item));
    const YAML::Node name = item["name"];
    if (!name) doc.fail(item, "an entry of " + in_quotes(list_key) + " has no 'name'");
    const std::string entry_name = yamlfile::as_string(doc, name, list_key + "[].name");
    const YAML::Node body = item[field];
    if (body && !body.IsNull() && !body.IsMap())
      doc.fail(body, in_quotes(field) + " of " + in_quotes(entry_name) + " must be a mapping, got " +
                         yamlfile::describe(body));
    into.try_emplace(entry_name, NamedEntry{&doc, body ? body : YAML::Node(YAML::NodeType::Map), name});
  }
}

void merge_file(const yamlfile::Document& doc, MergedKubeconfig& merged) {
  const YAML::Node& root = doc.root();
  if (root.IsNull()) return;  // an empty kubeconfig is allowed and contributes nothing
  if (!root.IsMap()) doc.fail(root, "a kubeconfig must be a mapping, got " + yamlfile::describe(root));
  if (const YAML::Node kind = root["kind"]; kind && !kind.IsNull()) {
    const std::string text = yamlfile::as_string(doc, kind, "kind");
    if (text != "Config") doc.fail(kind, "kind is " + in_quotes(text) + "; a kubeconfig has kind: Config");
  }
  merge_list(doc, "clusters", "cluster", merged.clusters);
  merge_list(doc, "users", "user", merged.users);
  merge_list(doc, "contexts", "context", merged.contexts);
  if (merged.current_context.empty()) {
    if (const YAML::Node current = root["current-context"]; current && !current.IsNull())
      merged.current_context = yamlfile::as_string(doc, current, "current-context");
  }
}

}  // namespace

std::filesystem::path base_directory(const yamlfile::Document& document) {
  return std::filesystem::absolute(std::filesystem::path(document.file())).parent_path();
}

MergedKubeconfig merge_kubeconfigs(const std::vector<std::filesystem::path>& files, bool required) {
  MergedKubeconfig merged;
  for (const auto& file : files) {
    std::error_code error;
    if (!required && !std::filesystem::exists(file, error)) continue;
    merged.documents.push_back(std::make_unique<yamlfile::Document>(yamlfile::Document::load(file)));
    merge_file(*merged.documents.back(), merged);
  }
  return merged;
}

}  // namespace gkebuild::kube
