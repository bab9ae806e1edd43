#include "fake_field_managers.h"

#include <vector>

#include "tool/core/kube/api_error.h"

namespace gkebuild::testing {
namespace {

using nlohmann::json;

// What identifies the object, or what the server writes: no manager owns these.
bool identity(const std::string& pointer) {
  return pointer == "/apiVersion" || pointer == "/kind" || pointer == "/metadata/name" ||
         pointer == "/metadata/namespace" || pointer.starts_with("/metadata/managedFields") ||
         pointer == "/metadata/uid" || pointer == "/metadata/resourceVersion" || pointer.starts_with("/status");
}

// A key as a JSON pointer's reference token.
std::string escaped(const std::string& key) {
  std::string token;
  for (char c : key) token += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
  return token;
}

void leaves(const json& value, const std::string& at, std::set<std::string>& found) {
  if (value.is_object() && !value.empty()) {
    for (const auto& [key, child] : value.items()) leaves(child, at + "/" + escaped(key), found);
  } else if (!identity(at)) {
    found.insert(at);
  }
}

std::set<std::string> leaves_of(const json& object) {
  std::set<std::string> found;
  leaves(object, "", found);
  return found;
}

// ".metadata.labels.team" as the server names a field in a conflict.
std::string field_name(const std::string& pointer) {
  std::string name;
  for (json::json_pointer at(pointer); !at.empty(); at = at.parent_pointer()) name = "." + at.back() + name;
  return name;
}

std::string without_operation(const std::string& owner) { return owner.substr(0, owner.rfind(" (")); }

// Removes the field at `pointer` and the maps it leaves empty.
void erase(json& object, const std::string& pointer) {
  json::json_pointer at(pointer);
  while (!at.empty()) {
    json::json_pointer parent = at.parent_pointer();
    if (!object.contains(at) || !object[parent].is_object()) return;
    object[parent].erase(at.back());
    if (!object[parent].empty() || parent.empty()) return;
    at = parent;
  }
}

}  // namespace

void FieldManagers::own_all(const std::string& manager, const json& object) {
  owners_[manager + " (Update)"] = leaves_of(object);
}

json FieldManagers::apply(const std::optional<json>& stored, const json& body, const std::string& manager, bool force,
                          const std::string& action, bool commit) {
  const std::string me = manager + " (Apply)";
  const std::set<std::string> sent = leaves_of(body);
  json result = stored.value_or(json::object());
  auto owners = owners_;
  json causes = json::array();
  for (auto& [owner, fields] : owners) {
    if (owner == me) continue;
    std::vector<std::string> taken;
    for (const auto& field : sent) {
      const json::json_pointer at(field);
      if (!fields.contains(field) || !result.contains(at) || result[at] == body[at]) continue;
      causes.push_back({{"reason", "FieldManagerConflict"},
                        {"message", "conflict with \"" + without_operation(owner) + "\""},
                        {"field", field_name(field)}});
      taken.push_back(field);
    }
    for (const auto& field : taken) fields.erase(field);  // a forced apply takes them over
  }
  if (!causes.empty() && !force) {
    std::string message = "Apply failed with " + std::to_string(causes.size()) + " conflict" +
                          (causes.size() == 1 ? "" : "s") + ":";
    for (const auto& cause : causes)
      message += " " + cause["message"].get<std::string>() + ": " + cause["field"].get<std::string>();
    throw kube::ApiError(action, 409,
                         json{{"kind", "Status"},
                              {"status", "Failure"},
                              {"reason", "Conflict"},
                              {"message", message},
                              {"details", {{"causes", causes}}}}
                             .dump());
  }
  // What this manager set before and no longer sends goes, unless another manager still owns it.
  for (const auto& field : owners[me]) {
    if (sent.contains(field)) continue;
    bool kept = false;
    for (const auto& [owner, fields] : owners) kept |= owner != me && fields.contains(field);
    if (!kept) erase(result, field);
  }
  for (const auto& field : sent) result[json::json_pointer(field)] = body[json::json_pointer(field)];
  for (const char* key : {"apiVersion", "kind"}) result[key] = body.value(key, "");
  result["metadata"]["name"] = body["metadata"].value("name", "");
  if (body["metadata"].contains("namespace")) result["metadata"]["namespace"] = body["metadata"]["namespace"];
  owners[me] = sent;
  if (commit) owners_ = std::move(owners);
  return result;
}

}  // namespace gkebuild::testing
