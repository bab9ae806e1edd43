// Internal pieces of the GPU rules (see rules.h for the entry points).
#pragma once

#include <string_view>

#include "tool/steps/validate/pod_specs.h"
#include "tool/steps/validate/rules.h"

namespace gkebuild::validate {

inline constexpr std::string_view kGpuResource = "nvidia.com/gpu";
inline constexpr std::string_view kAcceleratorLabel = "cloud.google.com/gke-accelerator";

struct GpuUse {
  bool requests_gpu = false;
  Path first_gpu;  // the first positive GPU request or limit, where findings point
};

// Resource rules for one container; says whether it uses GPUs.
GpuUse check_container_gpus(RuleReporter& r, const ContainerRef& container);

// Scheduling rules for one pod spec (selectors, tolerations, hostPath mounts).
void check_gpu_scheduling(RuleReporter& r, const PodSpecRef& pod, const GpuUse& use, bool driver_daemonset);

// Whether `object` is an NVIDIA driver installer or device plugin DaemonSet, which
// must mount host driver paths and target GPU nodes without requesting GPUs.
bool is_gpu_system_daemonset(const nlohmann::json& object);
void check_driver_installer(RuleReporter& r, const nlohmann::json& object);

// Job rules (restart policy for every Job; TTL, retries, deadline for GPU Jobs).
void check_batch(RuleReporter& r, const nlohmann::json& object, bool uses_gpus);

// Duplicate env names within a container.
void check_env(RuleReporter& r, const ContainerRef& container);

// literal-credential: a credential-like variable with its value written out (credential_checks.cpp),
// in a container's env, or in a gkebuild project file's experiments and images.
void check_literal_credentials(RuleReporter& r, const ContainerRef& container);
void check_project_credentials(RuleReporter& r);

// The known GKE accelerator labels (from the accelerator catalog).
const std::vector<std::string>& accelerator_labels();

}  // namespace gkebuild::validate
