// object-name: metadata.name against the rule the API server (or the kind's webhook) applies to
// that kind. A Service's name is a DNS-1035 label (it starts with a letter), so a headless
// Service named after a Job "3d-unet-…" is refused and its pods' rendezvous name never resolves.
#include <regex>

#include "tool/steps/validate/manifest.h"
#include "tool/steps/validate/rules.h"

namespace gkebuild::validate {
namespace {

// What `name` breaks for an object of `kind` in `api_version`: empty when it is fine, or for
// kinds whose rule is not known here. Sources: k8s.io/apimachinery validation (IsDNS1035Label,
// IsDNS1123Label, IsDNS1123Subdomain), the API server's ValidateObjectMeta per kind, a Job's
// name being its pods' batch.kubernetes.io/job-name label value (at most 63), a CronJob's
// 52 (its Jobs add 11), and JobSet's webhook (its name starts its Jobs' and pods' DNS-1035 names).
std::string name_problem(const std::string& api_version, const std::string& kind, const std::string& name) {
  static const std::regex label1035("[a-z]([-a-z0-9]*[a-z0-9])?");
  static const std::regex label1123("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  static const std::regex subdomain("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  const std::string group = api_version.find('/') == std::string::npos ? "" : api_version.substr(0, api_version.find('/'));
  std::size_t most = 253;
  const std::regex* rule = &subdomain;
  std::string rule_name = "a DNS-1123 subdomain (lower-case letters, digits, '-' and '.', starting and ending with a "
                          "letter or digit)";
  if ((group.empty() && kind == "Service") || (group == "jobset.x-k8s.io" && kind == "JobSet")) {
    rule = &label1035;
    most = 63;
    rule_name = "a DNS-1035 label (lower-case letters, digits and '-', starting with a letter)";
  } else if (group.empty() && kind == "Namespace") {
    rule = &label1123;
    most = 63;
    rule_name = "a DNS-1123 label (lower-case letters, digits and '-')";
  } else if (group == "batch" && (kind == "Job" || kind == "CronJob")) {
    most = kind == "Job" ? 63 : 52;
  } else if (!(group.empty() || group == "apps" || group == "batch" || group.ends_with(".x-k8s.io"))) {
    return "";  // other groups have rules of their own (an RBAC role's name may hold ':')
  }
  if (!std::regex_match(name, *rule)) return kind + " name '" + name + "' is not " + rule_name;
  if (name.size() > most)
    return kind + " name '" + name + "' has " + std::to_string(name.size()) + " characters; at most " +
           std::to_string(most);
  return "";
}

}  // namespace

void check_object_name(RuleReporter& r) {
  const auto& object = r.manifest().value;
  const auto* metadata = object.is_object() && object.contains("metadata") ? &object["metadata"] : nullptr;
  if (!metadata || !metadata->is_object() || !metadata->contains("name") || !(*metadata)["name"].is_string()) return;
  const std::string problem =
      name_problem(string_field(object, "apiVersion"), string_field(object, "kind"), (*metadata)["name"].get<std::string>());
  if (!problem.empty()) r.report("object-name", {"metadata", "name"}, problem);
}

}  // namespace gkebuild::validate
