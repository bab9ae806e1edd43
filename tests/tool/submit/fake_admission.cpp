#include "fake_admission.h"

#include <filesystem>
#include <memory>
#include <mutex>

#include "tool/core/kube/api_error.h"
#include "tool/core/kube/object_names.h"
#include "tool/steps/validate/schema_check.h"
#include "tool/steps/validate/schema_locator.h"
#include "tool/steps/validate/schema_store.h"

namespace gkebuild::testing {
namespace {

using nlohmann::json;

// "Job.batch" as the server names a kind in its messages.
std::string qualified_kind(const kube::ResourceType& type) {
  const std::string api_version(type.api_version);
  const auto slash = api_version.find('/');
  return std::string(type.kind) + (slash == std::string::npos ? "" : "." + api_version.substr(0, slash));
}

[[noreturn]] void invalid(const std::string& action, const kube::ResourceType& type, const std::string& name,
                          const json& causes) {
  std::string message = qualified_kind(type) + " \"" + name + "\" is invalid: ";
  for (std::size_t i = 0; i < causes.size(); ++i)
    message += (i ? ", " : "") + causes[i]["field"].get<std::string>() + ": " + causes[i]["message"].get<std::string>();
  throw kube::ApiError(action, 422,
                       json{{"kind", "Status"},
                            {"status", "Failure"},
                            {"reason", "Invalid"},
                            {"message", message},
                            {"details", {{"name", name}, {"kind", std::string(type.plural)}, {"causes", causes}}}}
                           .dump());
}

// The embedded schemas of the newest Kubernetes gkebuild knows, compiled once per test
// program (a compile takes a while; tests make many clusters, on many threads).
std::vector<validate::SchemaIssue> schema_issues(const json& object) {
  static std::mutex mutex;
  static const auto cache = std::filesystem::temp_directory_path() / "gkebuild-fake-cluster-schemas";
  static validate::SchemaLocator locator({{}, validate::kFallbackKubernetesVersion, true, cache});
  static validate::SchemaStore store(locator, cache);
  std::lock_guard lock(mutex);
  const auto* schema = store.find(object.value("apiVersion", ""), object.value("kind", ""));
  return schema ? validate::check_against_schema(*schema, object) : std::vector<validate::SchemaIssue>{};
}

std::string dotted(const validate::Path& path) {
  std::string text;
  for (const auto& part : path)
    text += !part.empty() && part.find_first_not_of("0123456789") == std::string::npos ? "[" + part + "]"
                                                                                       : (text.empty() ? "" : ".") + part;
  return text;
}

json schema_causes(const json& object) {
  json causes = json::array();
  for (const auto& issue : schema_issues(object))
    causes.push_back({{"reason", issue.at_key ? "FieldValueNotSupported" : "FieldValueInvalid"},
                      {"message", issue.message},
                      {"field", dotted(issue.path)}});
  return causes;
}

}  // namespace

void admit(const json& object, const kube::ResourceType& type, const std::string& action,
           const std::function<bool(const std::string&)>& namespace_exists) {
  const json metadata = object.value("metadata", json::object());
  const std::string name = metadata.value("name", "");
  if (name.empty())
    invalid(action, type, name,
            json::array({{{"reason", "FieldValueRequired"}, {"message", "name or generateName is required"},
                          {"field", "metadata.name"}}}));
  if (auto problem = kube::name_problem(type.kind, name))
    invalid(action, type, name,
            json::array({{{"reason", "FieldValueInvalid"}, {"message", *problem}, {"field", "metadata.name"}}}));
  if (type.namespaced) {
    const std::string ns = metadata.value("namespace", "");
    if (!namespace_exists(ns))
      throw kube::ApiError(action, 404,
                           json{{"kind", "Status"},
                                {"status", "Failure"},
                                {"reason", "NotFound"},
                                {"message", "namespaces \"" + ns + "\" not found"},
                                {"details", {{"name", ns}, {"kind", "namespaces"}}}}
                               .dump());
  }
  if (json causes = schema_causes(object); !causes.empty()) invalid(action, type, name, causes);
}

}  // namespace gkebuild::testing
