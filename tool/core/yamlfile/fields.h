// A YAML mapping read key by key: unknown keys (with a "did you mean") and duplicate
// keys are errors at their position, and every typed read names what it expected.
#pragma once

#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <vector>

#include "tool/core/yamlfile/document.h"

namespace gkebuild::yamlfile {

class Fields {
 public:
  // `what` names the mapping in messages ("experiment 'train'"); `allowed` lists its keys.
  Fields(const Document& doc, const YAML::Node& map, std::string what,
         std::vector<std::string> allowed);

  const Document& document() const { return *doc_; }
  const YAML::Node& node() const { return map_; }
  const std::string& what() const { return what_; }

  // A key counts as present when it is there and not null (`env:` with nothing after it).
  bool has(const std::string& key) const;
  YAML::Node get(const std::string& key) const;  // undefined when absent
  YAML::Node required(const std::string& key) const;

  std::string string(const std::string& key, std::string fallback) const;
  std::string required_string(const std::string& key) const;
  long long integer(const std::string& key, long long fallback, long long minimum) const;
  bool boolean(const std::string& key, bool fallback) const;
  std::vector<std::string> strings(const std::string& key) const;  // empty when absent

  // "<what>.<key>" for messages about the value of `key`.
  std::string name(const std::string& key) const { return what_ + "." + key; }

 private:
  const Document* doc_;
  YAML::Node map_;
  std::string what_;
};

// Requires `node` to be a mapping (or null, read as empty); returns its keys in order.
std::vector<std::string> mapping_keys(const Document& doc, const YAML::Node& node,
                                      const std::string& what);

}  // namespace gkebuild::yamlfile
