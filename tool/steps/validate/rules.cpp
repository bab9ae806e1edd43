#include "tool/steps/validate/rules.h"

#include <algorithm>

#include "base/printable.h"
#include "base/suggest.h"

namespace gkebuild::validate {

const std::vector<RuleInfo>& all_rules() {
  static const std::vector<RuleInfo> rules = {
      {"yaml-syntax", Severity::kError, "the file is not valid YAML (or not UTF-8 text)", "fix the YAML at the position shown"},
      {"yaml-limits", Severity::kError, "the document is too large, too deep or expands too far", "split the file or remove the alias/nesting"},
      {"duplicate-key", Severity::kError, "a mapping has the same key twice; kubectl keeps the last value and drops the others", "remove or rename one of the keys"},
      {"manifest", Severity::kError, "apiVersion or kind is missing or empty (a document with neither is skipped with info)", "add apiVersion and kind"},
      {"project-file", Severity::kError, "a gkebuild project file (apiVersion: gkebuild/v1) that `gkebuild` would refuse: an unknown key, a wrong type or value", "fix the key or value named in the message (see docs/project-file.md)"},
      {"rejected-kind", Severity::kError, "a kind the run was told to refuse (--reject, kubeconform's -reject)", "remove the object, or drop the kind from --reject"},
      {"schema", Severity::kError, "the object does not match the Kubernetes JSON schema", "fix the field named in the message"},
      {"unknown-kind", Severity::kInfo, "no schema for this kind: a custom resource is skipped (error with --strict-kinds), a built-in group's kind is an error (info with --ignore-missing-schemas)", "fix the kind or apiVersion, or pass --schema-location for CRD schemas"},
      {"object-name", Severity::kError, "metadata.name breaks its kind's rule: a Service or JobSet name must start with a letter (DNS-1035 label), a Namespace is a DNS-1123 label, a Job's name at most 63 characters, others DNS-1123 subdomains (the API server refuses the object)", "rename the object (a Service named after a Job whose name starts with a digit: put a letter first)"},
      {"deprecated-api", Severity::kWarning, "the apiVersion is deprecated in the target Kubernetes version", "move to the replacement apiVersion"},
      {"removed-api", Severity::kError, "the apiVersion is removed in the target Kubernetes version", "move to the replacement apiVersion"},
      {"gpu-request-without-limit", Severity::kError, "GPU in requests but not in limits (the API server rejects it)", "set limits.nvidia.com/gpu (requests may then be dropped)"},
      {"gpu-request-ne-limit", Severity::kError, "GPU request and limit differ (the API server rejects it)", "make requests.nvidia.com/gpu equal to limits.nvidia.com/gpu"},
      {"gpu-non-integer", Severity::kError, "GPU count is not a whole non-negative number", "request whole GPUs; share GPUs with GKE time-sharing, MPS or MIG node pools"},
      {"gpu-zero", Severity::kWarning, "nvidia.com/gpu: 0 requests no GPU", "remove the entry or request at least 1"},
      {"gpu-deprecated-resource", Severity::kError, "alpha.kubernetes.io/nvidia-gpu was removed in Kubernetes 1.10", "use nvidia.com/gpu"},
      {"gpu-resource-typo", Severity::kWarning, "a resource name that looks like a misspelt nvidia.com/gpu; no node offers it", "use nvidia.com/gpu"},
      {"gpu-initcontainer", Severity::kInfo, "GPUs requested by an init container count towards the pod's request", "request GPUs in the main containers only, if the init step needs none"},
      {"gpu-no-accelerator-selector", Severity::kInfo, "GPU pod without a cloud.google.com/gke-accelerator selector or a custom ComputeClass (needed where a cluster has several GPU types)", "add nodeSelector cloud.google.com/gke-accelerator: <type>"},
      {"gpu-unknown-accelerator", Severity::kInfo, "the accelerator label value is not in gkebuild's catalog (a typo, or a GPU newer than the catalog)", "use one of the GKE accelerator labels (cloud.google.com/gke-accelerator values)"},
      {"gpu-toleration-missing-nonrequesting", Severity::kWarning, "targets GPU nodes without requesting a GPU and does not tolerate the nvidia.com/gpu taint", "add a toleration {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}"},
      {"gpu-hostpath-driver-mount", Severity::kInfo, "hostPath mount of the NVIDIA driver directory (GKE's device plugin mounts it into GPU containers; installers and GPUDirect need it)", "for a plain GPU workload, remove the volume: GKE mounts /usr/local/nvidia into GPU containers"},
      {"gpu-driver-installer-legacy", Severity::kInfo, "a GKE NVIDIA driver installer DaemonSet without the gke-gpu-driver-version DoesNotExist term also runs on nodes whose driver GKE installs", "add {key: cloud.google.com/gke-gpu-driver-version, operator: DoesNotExist} to its node affinity if the cluster has node pools with gpu-driver-version set"},
      {"job-gpu-no-ttl", Severity::kInfo, "a GPU Job without ttlSecondsAfterFinished stays around after it ends", "set spec.ttlSecondsAfterFinished"},
      {"job-gpu-no-backoff-limit", Severity::kInfo, "a GPU Job without backoffLimit retries up to 6 times on expensive nodes", "set spec.backoffLimit"},
      {"job-gpu-no-deadline", Severity::kInfo, "a GPU Job without activeDeadlineSeconds can hold GPUs forever", "set spec.activeDeadlineSeconds"},
      {"job-restart-policy", Severity::kError, "a Job's pods must use restartPolicy Never or OnFailure (the API server rejects Always)", "set restartPolicy: Never or OnFailure"},
      {"duplicate-env-var", Severity::kWarning, "the same environment variable is set twice; the last one wins", "remove one of the entries"},
      {"literal-credential", Severity::kWarning, "a variable named like a credential (*_API_KEY, *_TOKEN, *PASSWORD*, *_SECRET*) has its value written out in a manifest or gkebuild project file", "read it from a Secret (valueFrom.secretKeyRef, envFrom) or, in gkebuild.yaml, list it under secretEnv"},
  };
  return rules;
}

const RuleInfo* find_rule(std::string_view id) {
  const auto& rules = all_rules();
  auto it = std::find_if(rules.begin(), rules.end(), [&](const RuleInfo& r) { return r.id == id; });
  return it == rules.end() ? nullptr : &*it;
}

std::vector<std::string> rule_ids() {
  std::vector<std::string> ids;
  for (const auto& rule : all_rules()) ids.emplace_back(rule.id);
  return ids;
}

namespace {
std::set<std::string, std::less<>> annotation_rules(const nlohmann::json& value) {
  std::set<std::string, std::less<>> out;
  const auto pointer = nlohmann::json::json_pointer("/metadata/annotations");
  if (!value.is_object() || !value.contains(pointer)) return out;
  const auto& annotations = value.at(pointer);
  if (!annotations.is_object()) return out;
  auto it = annotations.find(std::string(kDisableAnnotation));
  if (it == annotations.end() || !it->is_string()) return out;
  std::string list = it->get<std::string>();
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    std::string item = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (!item.empty()) out.insert(item);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}
}  // namespace

RuleReporter::RuleReporter(const Manifest& manifest, const std::set<std::string, std::less<>>& disabled,
                           std::vector<Finding>& out)
    : manifest_(manifest), disabled_(disabled), disabled_here_(annotation_rules(manifest.value)), out_(out) {}

// " (the gkebuild.io/disable-rules annotation names 'gpu-limt': did you mean 'gpu-limit'?)" when
// the object's annotation meant to turn `rule` off but misspelt it; "" otherwise.
std::string RuleReporter::misspelt_in_annotation(std::string_view rule) const {
  const std::vector<std::string> ids = rule_ids();
  for (const auto& named : disabled_here_) {
    if (find_rule(named) || closest_match(named, ids) != std::string(rule)) continue;
    return " (the " + std::string(kDisableAnnotation) + " annotation names '" + printable(named) +
           "': did you mean '" + std::string(rule) + "'?)";
  }
  return "";
}

bool RuleReporter::enabled(std::string_view rule) const {
  return !disabled_.count(rule) && !disabled_here_.count(rule);
}

void RuleReporter::report(std::string_view rule, const Path& path, const std::string& message, bool at_key,
                          std::optional<Severity> severity) {
  if (!enabled(rule)) return;
  const RuleInfo* info = find_rule(rule);
  Position p = manifest_.position(path, at_key);
  std::string text = message;
  if (info && rule != "schema" && rule != "yaml-syntax") text += "; fix: " + std::string(info->fix);
  text += misspelt_in_annotation(rule);
  Severity level = severity.value_or(info ? info->severity : Severity::kError);
  out_.push_back({manifest_.file, p.line, p.column, level,
                  std::string(rule), std::move(text)});
}

}  // namespace gkebuild::validate
