// Container-level GPU rules: what the API server enforces for extended resources
// (integers, requests equal to limits), and names no node will ever offer.
#include "tool/steps/validate/gpu_checks.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "base/quantity.h"

namespace gkebuild::validate {
namespace {

constexpr std::string_view kRemovedGpuResource = "alpha.kubernetes.io/nvidia-gpu";

bool is_valid_gpu_name(std::string_view name) {
  return name == kGpuResource || name.starts_with("nvidia.com/mig-") || name == "nvidia.com/gpu.shared" ||
         name == "amd.com/gpu" || name.starts_with("gpu.intel.com/");
}

bool looks_like_gpu_typo(std::string_view name) {
  if (is_valid_gpu_name(name) || name == kRemovedGpuResource) return false;
  std::string lower;
  for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower.find("gpu") != std::string::npos;
}

// A JSON number or quantity string; nullopt when it is neither.
std::optional<double> quantity_value(const nlohmann::json& value) {
  if (value.is_number()) return value.get<double>();
  if (value.is_string()) return parse_quantity(value.get_ref<const std::string&>());
  return std::nullopt;
}

Path with(Path path, std::initializer_list<std::string> more) {
  path.insert(path.end(), more.begin(), more.end());
  return path;
}

// "${ACCELERATOR_QUANTITY}" or "{{ .Values.gpus }}": a file meant for envsubst or a
// template engine, whose value is not known yet.
bool is_placeholder(const nlohmann::json& value) {
  if (!value.is_string()) return false;
  const auto& text = value.get_ref<const std::string&>();
  return text.find("${") != std::string::npos || text.find("{{") != std::string::npos;
}

void check_gpu_value(RuleReporter& r, const Path& path, const nlohmann::json& value, bool is_limit) {
  auto q = quantity_value(value);
  std::string shown = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (is_placeholder(value)) {
    r.report("gpu-non-integer", path, "GPU count " + shown + " is a template placeholder; not checked", false,
             Severity::kInfo);
    return;
  }
  if (!q || *q < 0 || std::floor(*q) != *q) {
    r.report("gpu-non-integer", path, "GPU count " + shown + " is not a whole non-negative number");
    return;
  }
  if (is_limit && *q == 0) r.report("gpu-zero", path, "GPU limit is 0, so this container gets no GPU");
}

}  // namespace

GpuUse check_container_gpus(RuleReporter& r, const ContainerRef& container) {
  GpuUse use;
  const auto* resources = find_path(*container.container, {"resources"});
  if (!resources || !resources->is_object()) return use;
  const nlohmann::json empty = nlohmann::json::object();
  const auto* requests = find_path(*resources, {"requests"});
  const auto* limits = find_path(*resources, {"limits"});
  if (!requests || !requests->is_object()) requests = &empty;
  if (!limits || !limits->is_object()) limits = &empty;
  for (const auto& [section, values] : {std::pair{"requests", requests}, std::pair{"limits", limits}}) {
    for (const auto& [name, value] : values->items()) {
      Path path = with(container.path, {"resources", section, name});
      if (name == kRemovedGpuResource) {
        r.report("gpu-deprecated-resource", path, "resource " + name + " was removed in Kubernetes 1.10", true);
      } else if (looks_like_gpu_typo(name)) {
        r.report("gpu-resource-typo", path, "resource \"" + name + "\" is not offered by GPU nodes (did you mean '" +
                                                std::string(kGpuResource) + "'?)", true);
      } else if (is_valid_gpu_name(name)) {
        check_gpu_value(r, path, value, section == std::string_view("limits"));
        auto q = quantity_value(value);
        if (q && *q > 0 && use.first_gpu.empty()) use.first_gpu = path;
        if (q && *q > 0) use.requests_gpu = true;
      }
    }
  }
  for (const auto& [name, request] : requests->items()) {
    if (!is_valid_gpu_name(name)) continue;
    Path path = with(container.path, {"resources", "requests", name});
    auto limit = limits->find(name);
    if (limit == limits->end()) {
      r.report("gpu-request-without-limit", path, name + " is requested but has no limit", true);
      continue;
    }
    auto a = quantity_value(request), b = quantity_value(*limit);
    if (a && b && *a != *b)
      r.report("gpu-request-ne-limit", path, name + " request " + request.dump() + " differs from its limit " +
                                                 limit->dump());
  }
  if (use.requests_gpu && container.init)
    r.report("gpu-initcontainer", use.first_gpu, "init container requests GPUs", true);
  return use;
}

}  // namespace gkebuild::validate
