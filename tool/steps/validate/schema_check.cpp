#include "tool/steps/validate/schema_check.h"

#include <algorithm>
#include <set>

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include "base/suggest.h"

namespace gkebuild::validate {
namespace {

using Json = nlohmann::json;

Path path_from_context(const std::vector<std::string>& context) {
  Path path;
  for (const auto& part : context) {
    if (part.size() >= 2 && part.front() == '[' && part.back() == ']') path.push_back(part.substr(1, part.size() - 2));
  }
  return path;
}

const Json* value_at(const Json& root, const Path& path) {
  const Json* current = &root;
  for (const auto& part : path) {
    if (current->is_object()) {
      auto it = current->find(part);
      if (it == current->end()) return nullptr;
      current = &*it;
    } else if (current->is_array()) {
      size_t index = std::stoul(part);
      if (index >= current->size()) return nullptr;
      current = &(*current)[index];
    } else {
      return nullptr;
    }
  }
  return current;
}

// Follows "#/$defs/…" references inside the bundled document.
const Json* resolve(const Json& document, const Json* schema) {
  for (int hops = 0; schema && schema->is_object() && schema->contains("$ref") && hops < 32; ++hops) {
    const auto& ref = (*schema)["$ref"];
    if (!ref.is_string() || !ref.get<std::string>().starts_with("#")) return schema;
    auto pointer = Json::json_pointer(ref.get<std::string>().substr(1));
    schema = document.contains(pointer) ? &document.at(pointer) : nullptr;
  }
  return schema;
}

// The schema that governs the value at `path`, when it can be followed simply.
const Json* schema_at(const Json& document, const Path& path) {
  const Json* schema = resolve(document, &document);
  for (const auto& part : path) {
    if (!schema || !schema->is_object()) return nullptr;
    const Json* next = nullptr;
    if (auto p = schema->find("properties"); p != schema->end() && p->contains(part)) next = &(*p)[part];
    else if (auto i = schema->find("items"); i != schema->end() && i->is_object()) next = &*i;
    else if (auto a = schema->find("additionalProperties"); a != schema->end() && a->is_object()) next = &*a;
    schema = resolve(document, next);
  }
  return schema;
}

std::string json_type_name(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return "boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned: return "integer";
    case Json::value_t::number_float: return "number";
    case Json::value_t::string: return "string";
    case Json::value_t::array: return "array";
    case Json::value_t::object: return "object";
    default: return "value";
  }
}

std::string short_dump(const Json& value) {
  std::string text = value.dump(-1, ' ', false, Json::error_handler_t::replace);
  return text.size() > 60 ? text.substr(0, 57) + "..." : text;
}

std::string expected_types(const Json* schema) {
  if (!schema || !schema->contains("type")) return "another type";
  const Json& type = (*schema)["type"];
  std::vector<std::string> names;
  if (type.is_string()) names.push_back(type.get<std::string>());
  for (const auto& t : type.is_array() ? type : Json::array())
    if (t.is_string() && t != "null") names.push_back(t.get<std::string>());
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) out += (i ? (i + 1 == names.size() ? " or " : ", ") : "") + names[i];
  return out.empty() ? "null" : out;
}

std::string quoted_between(const std::string& text, char quote) {
  size_t end = text.rfind(quote);
  size_t start = end == std::string::npos || end == 0 ? std::string::npos : text.rfind(quote, end - 1);
  return start == std::string::npos ? std::string() : text.substr(start + 1, end - start - 1);
}

bool is_wrapper(const std::string& description) {
  static const char* const kWrappers[] = {
      "Failed to validate against schema associated with property name",
      "Failed to validate item #",
      "Failed to validate against additional properties schema",
      "Failed to validate against schema associated with pattern",
      "Failed to validate against child schema",
  };
  return std::any_of(std::begin(kWrappers), std::end(kWrappers),
                     [&](const char* w) { return description.starts_with(w); });
}

class IssueBuilder {
 public:
  IssueBuilder(const Json& document, const Json& value) : document_(document), value_(value) {}

  SchemaIssue build(const Path& path, const std::string& description) const {
    const Json* schema = schema_at(document_, path);
    const Json* found = value_at(value_, path);
    std::string where = to_display(path);
    if (description.starts_with("Object contains a property that could not be validated")) {
      std::string field = quoted_between(description, '\'');
      Path at = path;
      at.push_back(field);
      return {at, true, "unknown field \"" + field + "\" in " + where + did_you_mean(field, known_fields(schema))};
    }
    if (description.starts_with("Missing required property")) {
      std::string field = quoted_between(description, '\'');
      return {path, true, where + ": missing required field \"" + field + "\""};
    }
    if (description.starts_with("Value type not permitted") && found)
      return {path, false, where + ": expected " + expected_types(schema) + ", got " + json_type_name(*found) +
                               " " + short_dump(*found)};
    if (description.starts_with("Failed to match against any enum values") && schema && schema->contains("enum"))
      return {path, false, where + ": " + (found ? short_dump(*found) : "value") + " is not one of " +
                               short_dump((*schema)["enum"])};
    if (description.find("oneOf") != std::string::npos || description.find("exactly one child") != std::string::npos)
      return {path, false, where + ": " + (found ? short_dump(*found) : "value") +
                               " does not match exactly one allowed form (" + one_of_forms(schema) + ")"};
    return {path, false, where + ": " + description};
  }

 private:
  std::vector<std::string> known_fields(const Json* schema) const {
    std::vector<std::string> names;
    if (schema && schema->contains("properties"))
      for (const auto& [name, sub] : (*schema)["properties"].items()) names.push_back(name);
    return names;
  }

  std::string one_of_forms(const Json* schema) const {
    if (!schema || !schema->contains("oneOf")) return "see the schema";
    std::string out;
    for (const auto& branch : (*schema)["oneOf"]) {
      out += out.empty() ? "" : " | ";
      out += expected_types(resolve(document_, &branch));
    }
    return out;
  }

  const Json& document_;
  const Json& value_;
};

}  // namespace

std::vector<SchemaIssue> check_against_schema(const CompiledSchema& schema, const Json& value) {
  valijson::Validator validator(valijson::Validator::kStrongTypes);
  valijson::adapters::NlohmannJsonAdapter target(value);
  valijson::ValidationResults results;
  if (validator.validate(schema.schema, target, &results)) return {};

  std::vector<std::pair<Path, std::string>> raw;
  std::set<Path> one_of_paths;
  valijson::ValidationResults::Error error;
  while (results.popError(error)) {
    if (is_wrapper(error.description)) continue;
    Path path = path_from_context(error.context);
    if (error.description.find("oneOf") != std::string::npos ||
        error.description.find("exactly one child") != std::string::npos)
      one_of_paths.insert(path);
    raw.emplace_back(std::move(path), error.description);
  }
  IssueBuilder builder(schema.document, value);
  std::vector<SchemaIssue> issues;
  std::set<std::pair<Path, std::string>> seen;
  for (const auto& [path, description] : raw) {
    bool is_one_of = one_of_paths.count(path) &&
                     (description.find("oneOf") != std::string::npos ||
                      description.find("exactly one child") != std::string::npos);
    // A oneOf failure also carries each branch's own error; the summary says it better.
    if (one_of_paths.count(path) && !is_one_of) continue;
    if (!seen.insert({path, description}).second) continue;
    issues.push_back(builder.build(path, description));
  }
  return issues;
}

}  // namespace gkebuild::validate
