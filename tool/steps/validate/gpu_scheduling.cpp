// Pod-level GPU rules on GKE: accelerator selectors, the nvidia.com/gpu taint that
// GKE only tolerates automatically for pods requesting GPUs, and driver mounts.
#include "tool/steps/validate/gpu_checks.h"

#include <array>

#include "base/suggest.h"
#include "tool/core/catalog/catalog.h"

namespace gkebuild::validate {

const std::vector<std::string>& accelerator_labels() {
  static const std::vector<std::string> labels = catalog::Catalog::builtin().labels();
  return labels;
}

namespace {

struct Selector {
  Path path;          // the key (nodeSelector) or the expression's "key" field
  std::vector<std::pair<Path, std::string>> values;  // label values with their paths
};

Path with(Path path, std::initializer_list<std::string> more) {
  path.insert(path.end(), more.begin(), more.end());
  return path;
}

void collect_expressions(const nlohmann::json& terms, const Path& terms_path, const char* nested,
                         std::vector<Selector>& out) {
  if (!terms.is_array()) return;
  for (size_t t = 0; t < terms.size(); ++t) {
    Path term_path = with(terms_path, {std::to_string(t)});
    const nlohmann::json* term = &terms[t];
    if (nested) {
      term = find_path(*term, {nested});
      term_path.push_back(nested);
    }
    const auto* expressions = term ? find_path(*term, {"matchExpressions"}) : nullptr;
    if (!expressions || !expressions->is_array()) continue;
    for (size_t e = 0; e < expressions->size(); ++e) {
      const auto& expression = (*expressions)[e];
      if (string_field(expression, "key") != kAcceleratorLabel || string_field(expression, "operator") == "DoesNotExist" ||
          string_field(expression, "operator") == "NotIn")
        continue;
      Path expression_path = with(term_path, {"matchExpressions", std::to_string(e)});
      Selector selector{with(expression_path, {"key"}), {}};
      const auto* values = find_path(expression, {"values"});
      for (size_t v = 0; values && values->is_array() && v < values->size(); ++v)
        if ((*values)[v].is_string())
          selector.values.push_back({with(expression_path, {"values", std::to_string(v)}), (*values)[v]});
      out.push_back(std::move(selector));
    }
  }
}

std::vector<Selector> accelerator_selectors(const PodSpecRef& pod) {
  std::vector<Selector> out;
  const auto* node_selector = find_path(*pod.spec, {"nodeSelector"});
  if (node_selector && node_selector->is_object() && node_selector->contains(kAcceleratorLabel)) {
    const auto& value = (*node_selector)[std::string(kAcceleratorLabel)];
    Path path = with(pod.path, {"nodeSelector", std::string(kAcceleratorLabel)});
    Selector selector{path, {}};
    if (value.is_string()) selector.values.push_back({path, value.get<std::string>()});
    out.push_back(std::move(selector));
  }
  Path affinity = with(pod.path, {"affinity", "nodeAffinity"});
  if (const auto* required = find_path(*pod.spec, {"affinity", "nodeAffinity",
                                                   "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms"}))
    collect_expressions(*required, with(affinity, {"requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms"}),
                        nullptr, out);
  if (const auto* preferred = find_path(*pod.spec, {"affinity", "nodeAffinity",
                                                    "preferredDuringSchedulingIgnoredDuringExecution"}))
    collect_expressions(*preferred, with(affinity, {"preferredDuringSchedulingIgnoredDuringExecution"}), "preference", out);
  return out;
}

// A custom ComputeClass names the GPU type in its priority rules, and GKE's docs drop the
// gke-accelerator selector from pods that select one; Autopilot's built-in "Accelerator" class
// does not, and still needs it.
bool selects_custom_compute_class(const PodSpecRef& pod) {
  const auto* selected = find_path(*pod.spec, {"nodeSelector", "cloud.google.com/compute-class"});
  return selected && selected->is_string() && selected->get<std::string>() != "Accelerator";
}

bool tolerates_gpu_taint(const nlohmann::json& spec) {
  const auto* tolerations = find_path(spec, {"tolerations"});
  if (!tolerations || !tolerations->is_array()) return false;
  for (const auto& t : *tolerations) {
    if (!t.is_object()) continue;
    std::string key = string_field(t, "key");
    if (key == kGpuResource) return true;
    if (key.empty() && string_field(t, "operator") == "Exists") return true;
  }
  return false;
}

constexpr std::array<std::string_view, 4> kDriverPaths = {"/home/kubernetes/bin/nvidia", "/usr/local/nvidia",
                                                          "/var/lib/nvidia", "/usr/lib/nvidia"};

void check_driver_mounts(RuleReporter& r, const PodSpecRef& pod) {
  const auto* volumes = find_path(*pod.spec, {"volumes"});
  for (size_t i = 0; volumes && volumes->is_array() && i < volumes->size(); ++i) {
    const auto* host_path = find_path((*volumes)[i], {"hostPath", "path"});
    if (!host_path || !host_path->is_string()) continue;
    std::string path = host_path->get<std::string>();
    for (auto prefix : kDriverPaths) {
      if (path.starts_with(prefix)) {
        r.report("gpu-hostpath-driver-mount", with(pod.path, {"volumes", std::to_string(i), "hostPath", "path"}),
                 "hostPath volume mounts the NVIDIA driver directory " + path);
        break;
      }
    }
  }
}

}  // namespace

void check_gpu_scheduling(RuleReporter& r, const PodSpecRef& pod, const GpuUse& use, bool driver_daemonset) {
  auto selectors = accelerator_selectors(pod);
  for (const auto& selector : selectors) {
    for (const auto& [path, value] : selector.values) {
      const auto& labels = accelerator_labels();
      if (std::find(labels.begin(), labels.end(), value) != labels.end()) continue;
      r.report("gpu-unknown-accelerator", path,
               "\"" + value + "\" is not a known GKE accelerator" + did_you_mean(value, labels));
    }
  }
  if (use.requests_gpu && selectors.empty() && !selects_custom_compute_class(pod))
    r.report("gpu-no-accelerator-selector", use.first_gpu,
             "pod requests GPUs but does not select a GPU type with " + std::string(kAcceleratorLabel), true);
  if (!use.requests_gpu && !selectors.empty() && !driver_daemonset && !tolerates_gpu_taint(*pod.spec))
    r.report("gpu-toleration-missing-nonrequesting", selectors.front().path,
             "pod targets GPU nodes without requesting a GPU, so GKE adds no toleration for the nvidia.com/gpu "
             "taint and it will not schedule",
             true);
  if (!driver_daemonset) check_driver_mounts(r, pod);
}

}  // namespace gkebuild::validate
