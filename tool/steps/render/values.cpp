#include "tool/steps/render/values.h"

#include "base/error.h"
#include "base/printable.h"
#include "base/source_error.h"
#include "tool/core/yamlfile/document.h"
#include "tool/steps/render/values_builder.h"
#include "tool/steps/render/values_json.h"
#include "tool/steps/render/values_yaml.h"

namespace gkebuild::render {
namespace {

jinja::Value empty_mapping() { return jinja::Value::dict({}); }

// A mapping made from `source`'s entries keeps the values documents they borrow from.
void keep_documents(jinja::Value& mapping, const jinja::Value& source) {
  auto* box = mapping.as<jinja::DictBox>();
  if (source.is_doc() && source.object_shared()) box->documents.push_back(source.object_shared());
  if (const auto* from = source.as<jinja::DictBox>(); from && from != box)
    box->documents.insert(box->documents.end(), from->documents.begin(), from->documents.end());
}

jinja::Value merged(const jinja::Value& base, const jinja::Value& overlay) {
  if (!base.is_mapping() || !overlay.is_mapping()) return overlay;
  if (jinja::length(base) == 0) return overlay;
  std::vector<ValuePair> scratch;
  MappingBuilder result(scratch);
  jinja::mapping_for_each(base, [&](const jinja::Value& key, const jinja::Value& value) { result.add(key, value); });
  jinja::mapping_for_each(overlay, [&](const jinja::Value& key, const jinja::Value& value) {
    if (jinja::Value* slot = result.find(key.str())) *slot = merged(*slot, value);
    else result.add(key, value);
  });
  jinja::Value out = result.finish();
  keep_documents(out, base);
  keep_documents(out, overlay);
  return out;
}

bool is_json_file(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  for (auto& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return extension == ".json";
}

// `node` with `leaf` at keys[index…]; mappings on the way are copied, others replaced.
jinja::Value with_assignment(const jinja::Value& node, const std::vector<std::string>& keys, std::size_t index,
                             const jinja::Value& leaf) {
  if (index == keys.size()) return leaf;
  std::vector<ValuePair> scratch;
  MappingBuilder result(scratch);
  if (node.is_mapping())
    jinja::mapping_for_each(node, [&](const jinja::Value& key, const jinja::Value& value) { result.add(key, value); });
  if (jinja::Value* slot = result.find(keys[index])) *slot = with_assignment(*slot, keys, index + 1, leaf);
  else result.add(jinja::Value::string(keys[index]), with_assignment(jinja::Value(), keys, index + 1, leaf));
  jinja::Value out = result.finish();
  keep_documents(out, node);
  return out;
}

}  // namespace

void merge_values(jinja::Value& base, const jinja::Value& overlay) { base = merged(base, overlay); }

jinja::Value load_values_file(const std::filesystem::path& path) {
  const std::string file = path.string();
  // A values file is named on the command line: `--values <(…)` (a pipe) is read as bash means it.
  jinja::Value root = is_json_file(path)
                          ? parse_json_values(yamlfile::read_text(path, yamlfile::kMaxFileBytes, Pipes::kRead), file)
                          : parse_yaml_values(yamlfile::read_bounded(path, yamlfile::kMaxFileBytes, Pipes::kRead), file);
  if (root.is_none()) return empty_mapping();
  if (!root.is_mapping())
    throw SourceError({file}, "a values file must be a mapping at the top, got " + describe_value(root));
  return root;
}

void apply_set(jinja::Value& values, const Assignment& assignment) {
  const auto& [path, value] = assignment;
  std::vector<std::string> keys;
  for (std::size_t start = 0;;) {
    const std::size_t dot = path.find('.', start);
    keys.push_back(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (keys.back().empty())
      throw Error(ErrorKind::kBadInput, "empty key in " + in_quotes(path) + " (keys may be dotted: a.b=1)");
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  std::string_view text = value;
  const auto kind = yamlfile::resolve_command_line_scalar(text);
  const jinja::Value leaf =
      scalar_to_value(yamlfile::scalar_value(text, kind), jinja::Value::string(std::string(text)));
  values = with_assignment(values, keys, 0, leaf);
}

jinja::Value load_values(const std::vector<std::filesystem::path>& files,
                         const std::vector<Assignment>& assignments) {
  jinja::Value values = empty_mapping();
  for (const auto& file : files) merge_values(values, load_values_file(file));
  for (const auto& assignment : assignments) apply_set(values, assignment);
  return values;
}

}  // namespace gkebuild::render
