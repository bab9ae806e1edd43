#include "tool/steps/validate/schema_bundle.h"

#include <map>
#include <stdexcept>
#include <string_view>

namespace gkebuild::validate {
namespace {

bool is_dropped_keyword(std::string_view key) {
  // Python's jsonschema (kubernetes-validate's engine) treats "format" as an annotation.
  return key == "description" || key == "format" || key == "$schema" || key == "$id" ||
         key == "id" || key == "example" || key == "externalDocs" || key == "title" ||
         key.starts_with("x-kubernetes-");
}

bool is_schema_map(std::string_view key) {
  return key == "properties" || key == "patternProperties" || key == "$defs" || key == "definitions";
}

bool is_schema_or_list(std::string_view key) {
  return key == "items" || key == "additionalProperties" || key == "additionalItems" || key == "not" ||
         key == "allOf" || key == "anyOf" || key == "oneOf";
}

std::string unescape_pointer_token(std::string token) {
  std::string out;
  for (size_t i = 0; i < token.size(); ++i) {
    if (token[i] == '~' && i + 1 < token.size()) {
      out += token[i + 1] == '1' ? '/' : '~';
      ++i;
    } else {
      out += token[i];
    }
  }
  return out;
}

std::string escape_pointer_token(const std::string& token) {
  std::string out;
  for (char c : token) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

char other_case(char c) {
  if (c >= 'a' && c <= 'z') return static_cast<char>(c - 'a' + 'A');
  if (c >= 'A' && c <= 'Z') return static_cast<char>(c - 'A' + 'a');
  return c;
}

bool is_letter(char c) { return other_case(c) != c; }

}  // namespace

std::string ecmascript_pattern(const std::string& pattern) {
  const bool anchored = pattern.starts_with("^(?i)");
  if (!anchored && !pattern.starts_with("(?i)")) return pattern;
  const std::string body = pattern.substr(anchored ? 5 : 4);
  std::string out = anchored ? "^" : "";
  bool in_class = false;
  for (std::size_t i = 0; i < body.size(); ++i) {
    const char c = body[i];
    if (c == '\\' && i + 1 < body.size()) {  // an escape (\d, \.) stays as it is
      out += body.substr(i++, 2);
      continue;
    }
    if (!in_class && c == '[') in_class = true;
    else if (in_class && c == ']') in_class = false;
    if (in_class && is_letter(c) && i + 2 < body.size() && body[i + 1] == '-' && is_letter(body[i + 2])) {
      out += body.substr(i, 3) + other_case(c) + "-" + other_case(body[i + 2]);  // a-z: a-zA-Z
      i += 2;
    } else if (is_letter(c)) {
      out += in_class ? std::string{c, other_case(c)} : std::string{'[', c, other_case(c), ']'};
    } else {
      out += c;
    }
  }
  return out;
}

namespace {

class Bundler {
 public:
  explicit Bundler(const DocumentLoader& load) : load_(load) {}

  nlohmann::json bundle(const nlohmann::json& root) {
    nlohmann::json out = trim(root, "");
    if (!defs_.empty()) out["$defs"] = std::move(defs_);
    return out;
  }

 private:
  // `doc` names the document `schema` is part of ("" for the kind's own schema).
  nlohmann::json trim(const nlohmann::json& schema, const std::string& doc) {
    if (schema.is_array()) {
      nlohmann::json out = nlohmann::json::array();
      for (const auto& item : schema) out.push_back(trim(item, doc));
      return out;
    }
    if (!schema.is_object()) return schema;
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, value] : schema.items()) {
      if (is_dropped_keyword(key)) continue;
      if (key == "$ref" && value.is_string()) {
        out[key] = rewrite_ref(value.get<std::string>(), doc);
      } else if (key == "pattern" && value.is_string()) {
        out[key] = ecmascript_pattern(value.get<std::string>());
      } else if (is_schema_map(key) && value.is_object()) {
        nlohmann::json map = nlohmann::json::object();
        for (const auto& [name, sub] : value.items()) map[name] = trim(sub, doc);
        out[key] = std::move(map);
      } else if (is_schema_or_list(key)) {
        out[key] = trim(value, doc);
      } else {
        out[key] = value;
      }
    }
    return out;
  }

  std::string rewrite_ref(const std::string& ref, const std::string& doc) {
    size_t hash = ref.find('#');
    std::string target_doc = hash == std::string::npos ? ref : ref.substr(0, hash);
    std::string pointer = hash == std::string::npos ? "" : ref.substr(hash + 1);
    if (target_doc.empty()) {
      if (doc.empty()) return ref;  // inside the kind's own schema, which keeps its shape
      target_doc = doc;
    }
    std::string id = target_doc + "#" + pointer;
    if (auto known = keys_.find(id); known != keys_.end()) return "#/$defs/" + escape_pointer_token(known->second);
    std::string key = unescape_pointer_token(pointer.substr(pointer.rfind('/') + 1));
    if (key.empty()) key = target_doc;
    while (defs_.contains(key)) key += "_";
    keys_[id] = key;
    defs_[key] = nullptr;  // reserves the name; recursive definitions refer to it
    const nlohmann::json& document = load_(target_doc);
    const nlohmann::json& target = document.at(nlohmann::json::json_pointer(pointer));
    defs_[key] = trim(target, target_doc);
    return "#/$defs/" + escape_pointer_token(key);
  }

  const DocumentLoader& load_;
  nlohmann::json defs_ = nlohmann::json::object();
  std::map<std::string, std::string> keys_;
};

}  // namespace

nlohmann::json bundle_schema(const nlohmann::json& kind_schema, const DocumentLoader& load) {
  return Bundler(load).bundle(kind_schema);
}

}  // namespace gkebuild::validate
