// The NVIDIA driver installer and device plugin DaemonSets: recognised so the rules
// that would flag what they must do (host driver mounts, GPU nodes without a GPU
// request) leave them alone. One hint remains for GKE installers: without the
// gke-gpu-driver-version DoesNotExist term an installer also runs on nodes whose driver
// GKE installs. Upstream's current installers (ubuntu/daemonset.yaml,
// cos/daemonset-nvidia-mig.yaml, minikube/daemonset.yaml) lack the term on purpose, so
// this is info, not an error; a pre-apps/v1 copy is removed-api's finding.
#include "tool/steps/validate/gpu_checks.h"

namespace gkebuild::validate {
namespace {

constexpr std::string_view kInstallerNames[] = {"nvidia-driver-installer", "nvidia-gpu-device-plugin"};

bool names_installer(const nlohmann::json& value) {
  if (!value.is_string()) return false;
  const auto& text = value.get_ref<const std::string&>();
  for (auto name : kInstallerNames)
    if (text.find(name) != std::string::npos) return true;
  return text.find("nvidia-installer") != std::string::npos;
}

bool any_image_names_installer(const nlohmann::json& spec) {
  for (const char* field : {"initContainers", "containers"}) {
    const auto* list = find_path(spec, {field});
    for (size_t i = 0; list && list->is_array() && i < list->size(); ++i)
      if ((*list)[i].is_object() && (*list)[i].contains("image") && names_installer((*list)[i]["image"])) return true;
  }
  return false;
}

// Whether a required node affinity expression has this key (and operator, if given).
bool has_required_expression(const nlohmann::json& spec, std::string_view key, std::string_view op) {
  const auto* terms = find_path(spec, {"affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution",
                                       "nodeSelectorTerms"});
  for (size_t t = 0; terms && terms->is_array() && t < terms->size(); ++t) {
    const auto* expressions = find_path((*terms)[t], {"matchExpressions"});
    for (size_t e = 0; expressions && expressions->is_array() && e < expressions->size(); ++e) {
      const auto& x = (*expressions)[e];
      if (string_field(x, "key") == key && (op.empty() || string_field(x, "operator") == op)) return true;
    }
  }
  return false;
}

// Only an installer meant for GKE GPU nodes can meet GKE-managed drivers.
bool targets_gke_gpu_nodes(const nlohmann::json& spec) {
  const auto* selector = find_path(spec, {"nodeSelector"});
  return (selector && selector->is_object() && selector->contains(kAcceleratorLabel)) ||
         has_required_expression(spec, kAcceleratorLabel, "");
}

bool is_driver_installer(const nlohmann::json& object) {
  if (string_field(object, "kind") != "DaemonSet") return false;
  const auto* name = find_path(object, {"metadata", "name"});
  if (name && name->is_string() && name->get<std::string>().find("nvidia-driver-installer") != std::string::npos)
    return true;
  const auto* spec = find_path(object, {"spec", "template", "spec"});
  return spec && any_image_names_installer(*spec) &&
         !(name && name->is_string() && name->get<std::string>().find("device-plugin") != std::string::npos);
}

}  // namespace

bool is_gpu_system_daemonset(const nlohmann::json& object) {
  if (string_field(object, "kind") != "DaemonSet") return false;
  const auto* name = find_path(object, {"metadata", "name"});
  if (name && names_installer(*name)) return true;
  const auto* labels = find_path(object, {"spec", "template", "metadata", "labels"});
  if (labels && labels->is_object())
    for (const auto& [key, value] : labels->items())
      if (names_installer(value)) return true;
  const auto* spec = find_path(object, {"spec", "template", "spec"});
  return spec && any_image_names_installer(*spec);
}

void check_driver_installer(RuleReporter& r, const nlohmann::json& object) {
  if (!is_driver_installer(object) || string_field(object, "apiVersion") != "apps/v1") return;
  const auto* spec = find_path(object, {"spec", "template", "spec"});
  if (spec && targets_gke_gpu_nodes(*spec) &&
      !has_required_expression(*spec, "cloud.google.com/gke-gpu-driver-version", "DoesNotExist"))
    r.report("gpu-driver-installer-legacy", {"spec", "template", "spec"},
             "NVIDIA driver installer has no node affinity term cloud.google.com/gke-gpu-driver-version "
             "DoesNotExist, so it also runs on nodes whose driver GKE installs (gpu-driver-version)",
             true);
}

}  // namespace gkebuild::validate
