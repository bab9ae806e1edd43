#include "tool/steps/validate/schema_names.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace gkebuild::validate {

SchemaNames schema_names(std::string_view api_version, std::string_view kind) {
  SchemaNames names;
  for (char c : kind) names.resource_kind += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  size_t slash = api_version.find('/');
  if (slash == std::string_view::npos) {
    names.resource_api_version = std::string(api_version);
    names.kind_suffix = "-" + names.resource_api_version;
    return names;
  }
  names.group = std::string(api_version.substr(0, slash));
  names.resource_api_version = std::string(api_version.substr(slash + 1));
  std::string short_group = names.group.substr(0, names.group.find('.'));
  names.kind_suffix = "-" + short_group + "-" + names.resource_api_version;
  return names;
}

std::string KubernetesVersion::to_string() const {
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

bool parse_kubernetes_version(std::string_view text, KubernetesVersion& out) {
  if (text.starts_with('v')) text.remove_prefix(1);
  int parts[3] = {0, 0, 0};
  int count = 0;
  const char* p = text.data();
  const char* end = text.data() + text.size();
  while (p < end && count < 3) {
    auto [next, ec] = std::from_chars(p, end, parts[count]);
    if (ec != std::errc() || parts[count] < 0) return false;
    ++count;
    p = next;
    if (p < end && *p == '.') ++p;
    else break;
  }
  if (count < 2 || p != end) return false;
  out = {parts[0], parts[1], parts[2]};
  return true;
}

namespace {
std::string without_spaces(std::string_view s) {
  std::string out;
  for (char c : s)
    if (c != ' ') out += c;
  return out;
}
}  // namespace

std::string unknown_template_variable(std::string_view pattern) {
  static constexpr std::string_view kKnown[] = {".NormalizedKubernetesVersion", ".StrictSuffix", ".ResourceKind",
                                                ".ResourceAPIVersion", ".Group", ".KindSuffix"};
  for (size_t open = pattern.find("{{"); open != std::string_view::npos; open = pattern.find("{{", open + 2)) {
    size_t close = pattern.find("}}", open);
    if (close == std::string_view::npos) return std::string(pattern.substr(open));
    std::string name = without_spaces(pattern.substr(open + 2, close - open - 2));
    if (std::find(std::begin(kKnown), std::end(kKnown), name) == std::end(kKnown))
      return std::string(pattern.substr(open, close + 2 - open));
  }
  return "";
}

std::string expand_location_template(std::string_view pattern, const SchemaNames& names,
                                     const KubernetesVersion& version, bool strict) {
  std::string out;
  size_t pos = 0;
  while (pos < pattern.size()) {
    size_t open = pattern.find("{{", pos);
    size_t close = open == std::string_view::npos ? open : pattern.find("}}", open);
    if (close == std::string_view::npos) {
      out += pattern.substr(pos);
      break;
    }
    out += pattern.substr(pos, open - pos);
    std::string name = without_spaces(pattern.substr(open + 2, close - open - 2));
    if (name == ".NormalizedKubernetesVersion") out += "v" + version.to_string();
    else if (name == ".StrictSuffix") out += strict ? "-strict" : "";
    else if (name == ".ResourceKind") out += names.resource_kind;
    else if (name == ".ResourceAPIVersion") out += names.resource_api_version;
    else if (name == ".Group") out += names.group;
    else if (name == ".KindSuffix") out += names.kind_suffix;
    else out += pattern.substr(open, close + 2 - open);
    pos = close + 2;
  }
  return out;
}

}  // namespace gkebuild::validate
