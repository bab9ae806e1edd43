// literal-credential: an environment variable whose name says it holds a credential
// (*_API_KEY, *_TOKEN, *PASSWORD*, *_SECRET*) with its value written out, in a manifest's
// container env or a gkebuild project file's env: — a value committed to git, printed by
// kubectl get -o yaml and kept in every run record. secretKeyRef, envFrom or gkebuild's
// secretEnv keep it out.
#include <algorithm>
#include <cctype>

#include "tool/steps/validate/gpu_checks.h"

namespace gkebuild::validate {
namespace {

bool looks_like_credential(std::string name) {
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::toupper(c); });
  return name.ends_with("_API_KEY") || name.ends_with("_TOKEN") || name.find("PASSWORD") != std::string::npos ||
         name.find("_SECRET") != std::string::npos;
}

// A value that is a credential when written out: not empty, and not only a $(VAR) reference
// to another variable (which Kubernetes expands from a variable set elsewhere).
bool literal(const nlohmann::json& value) {
  if (value.is_number()) return true;
  if (!value.is_string()) return false;
  const std::string text = value.get<std::string>();
  if (text.empty()) return false;
  return !(text.starts_with("$(") && text.ends_with(")") && text.find(')') == text.size() - 1);
}

void report(RuleReporter& r, const Path& path, const std::string& name, const std::string& where) {
  r.report("literal-credential", path,
           "environment variable " + name + " looks like a credential, and its value is written out in " + where);
}

}  // namespace

void check_literal_credentials(RuleReporter& r, const ContainerRef& container) {
  const auto* env = find_path(*container.container, {"env"});
  if (!env || !env->is_array()) return;
  for (size_t i = 0; i < env->size(); ++i) {
    const auto& entry = (*env)[i];
    if (!entry.is_object() || !entry.contains("name") || !entry["name"].is_string() || !entry.contains("value")) continue;
    const std::string name = entry["name"].get<std::string>();
    if (!looks_like_credential(name) || !literal(entry["value"])) continue;
    Path path = container.path;
    path.insert(path.end(), {"env", std::to_string(i), "value"});
    report(r, path, name, "the manifest");
  }
}

void check_project_credentials(RuleReporter& r) {
  const auto& project = r.manifest().value;
  for (const char* section : {"experiments", "images"}) {
    const auto* entries = find_path(project, {section});
    if (!entries || !entries->is_object()) continue;
    for (const auto& [entry_name, entry] : entries->items()) {
      const auto* env = find_path(entry, {"env"});
      if (!env || !env->is_object()) continue;
      for (const auto& [name, value] : env->items())
        if (looks_like_credential(name) && literal(value))
          report(r, {section, entry_name, "env", name}, name,
                 std::string(section) == "images"
                     ? "the project file, and would be in the image's config in the registry (use a build secret, "
                       "secrets: [{id, env}], or the experiment's secretEnv)"
                     : "the project file (give the experiment secretEnv: [" + name + "] instead)");
    }
  }
}

}  // namespace gkebuild::validate
