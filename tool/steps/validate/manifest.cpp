#include "tool/steps/validate/manifest.h"

#include <charconv>

namespace gkebuild::validate {

std::string to_display(const Path& path) {
  std::string out;
  for (const auto& part : path) {
    bool index = !part.empty() && part.find_first_not_of("0123456789") == std::string::npos;
    if (index) {
      out += "[" + part + "]";
    } else {
      if (!out.empty()) out += ".";
      out += part;
    }
  }
  return out.empty() ? "(root)" : out;
}

Position Manifest::position_of(const YAML::Mark& mark) const {
  if (mark.is_null()) return {line_offset + 1, 1};
  return {line_offset + mark.line + 1, mark.column + 1};
}

Position Manifest::position(const Path& path, bool key) const {
  YAML::Node current;
  current.reset(node);
  YAML::Mark mark = node.Mark();
  for (size_t i = 0; i < path.size(); ++i) {
    const auto& part = path[i];
    bool last = i + 1 == path.size();
    if (current.IsMap()) {
      // yaml-cpp's Node::operator= writes through to the tree; reset() only rebinds.
      YAML::Node found_key, found_value;
      bool found = false;
      for (auto it = current.begin(); it != current.end(); ++it) {
        if (it->first.IsScalar() && it->first.Scalar() == part) {
          found_key.reset(it->first);
          found_value.reset(it->second);
          found = true;
        }
      }
      if (!found) return position_of(mark);
      mark = (last && key) ? found_key.Mark() : found_value.Mark();
      // A value with no text of its own (`key:` then nothing) has no mark: use the key's.
      if (mark.is_null()) mark = found_key.Mark();
      current.reset(found_value);
    } else if (current.IsSequence()) {
      size_t index = 0;
      auto [p, ec] = std::from_chars(part.data(), part.data() + part.size(), index);
      if (ec != std::errc() || p != part.data() + part.size() || index >= current.size())
        return position_of(mark);
      const YAML::Node& sequence = current;
      YAML::Node item = sequence[index];
      current.reset(item);
      if (!current.Mark().is_null()) mark = current.Mark();
    } else {
      return position_of(mark);
    }
  }
  return position_of(mark);
}

std::string string_field(const nlohmann::json& object, const char* name) {
  if (!object.is_object()) return {};
  auto it = object.find(name);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string Manifest::kind() const { return string_field(value, "kind"); }
std::string Manifest::api_version() const { return string_field(value, "apiVersion"); }
std::string Manifest::name() const {
  auto it = value.is_object() ? value.find("metadata") : value.end();
  return it != value.end() ? string_field(*it, "name") : std::string();
}

}  // namespace gkebuild::validate
