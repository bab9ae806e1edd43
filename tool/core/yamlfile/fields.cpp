#include "tool/core/yamlfile/fields.h"

#include <algorithm>
#include <set>

#include "base/printable.h"
#include "base/suggest.h"
#include "tool/core/yamlfile/scalars.h"

namespace gkebuild::yamlfile {

std::vector<std::string> mapping_keys(const Document& doc, const YAML::Node& node,
                                      const std::string& what) {
  if (node.IsNull() || !node.IsDefined()) return {};
  if (!node.IsMap()) doc.fail(node, what + ": expected a mapping, got " + describe(node));
  std::vector<std::string> keys;
  std::set<std::string> seen;
  for (auto it = node.begin(); it != node.end(); ++it) {
    // A copy: it-> yields a temporary pair, so a reference to its member would dangle.
    const YAML::Node key = it->first;
    if (!key.IsScalar()) doc.fail(key, what + ": keys must be strings, got " + describe(key));
    // A key is echoed in messages and written into manifests: a control character in one
    // (a raw ESC, a newline) is never meant, so it is refused here, once for every message.
    if (printable(key.Scalar()) != key.Scalar())
      doc.fail(key, what + ": key " + in_quotes(key.Scalar()) + " holds a control character or invalid UTF-8");
    if (!seen.insert(key.Scalar()).second)
      doc.fail(key, what + ": duplicate key '" + printable(key.Scalar()) + "'");
    keys.push_back(key.Scalar());
  }
  return keys;
}

Fields::Fields(const Document& doc, const YAML::Node& map, std::string what,
               std::vector<std::string> allowed)
    : doc_(&doc), map_(map), what_(std::move(what)) {
  mapping_keys(doc, map, what_);
  if (!map.IsMap()) return;
  for (auto it = map.begin(); it != map.end(); ++it) {
    const std::string& key = it->first.Scalar();
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      doc.fail(it->first, "unknown key '" + printable(key) + "' in " + what_ + did_you_mean(key, allowed));
  }
}

bool Fields::has(const std::string& key) const {
  if (!map_.IsMap()) return false;
  YAML::Node value = map_[key];
  return value.IsDefined() && !value.IsNull();
}

YAML::Node Fields::get(const std::string& key) const {
  if (!map_.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
  for (auto it = map_.begin(); it != map_.end(); ++it)
    if (it->first.Scalar() == key) return it->second;
  return YAML::Node(YAML::NodeType::Undefined);
}

YAML::Node Fields::required(const std::string& key) const {
  if (!has(key)) doc_->fail(map_, what_ + ": missing required key '" + key + "'");
  return get(key);
}

std::string Fields::string(const std::string& key, std::string fallback) const {
  return has(key) ? as_string(*doc_, get(key), name(key)) : fallback;
}

std::string Fields::required_string(const std::string& key) const {
  std::string value = as_string(*doc_, required(key), name(key));
  if (value.empty()) doc_->fail(get(key), name(key) + ": must not be empty");
  return value;
}

long long Fields::integer(const std::string& key, long long fallback, long long minimum) const {
  if (!has(key)) return fallback;
  long long value = as_integer(*doc_, get(key), name(key));
  if (value < minimum)
    doc_->fail(get(key), name(key) + ": must be at least " + std::to_string(minimum));
  return value;
}

bool Fields::boolean(const std::string& key, bool fallback) const {
  return has(key) ? as_bool(*doc_, get(key), name(key)) : fallback;
}

std::vector<std::string> Fields::strings(const std::string& key) const {
  return has(key) ? as_strings(*doc_, get(key), name(key)) : std::vector<std::string>{};
}

}  // namespace gkebuild::yamlfile
