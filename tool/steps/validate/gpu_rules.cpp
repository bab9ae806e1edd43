// The entry point of the GPU and batch rules: walks every pod spec of an object.
#include "tool/steps/validate/gpu_checks.h"

namespace gkebuild::validate {

void check_gpu_rules(RuleReporter& r) {
  const auto& object = r.manifest().value;
  bool system_daemonset = is_gpu_system_daemonset(object);
  bool uses_gpus = false;
  for (const auto& pod : pod_specs(object)) {
    GpuUse pod_use;
    for (const auto& container : containers(pod)) {
      GpuUse use = check_container_gpus(r, container);
      check_env(r, container);
      check_literal_credentials(r, container);
      if (use.requests_gpu && !pod_use.requests_gpu) pod_use = use;
    }
    check_gpu_scheduling(r, pod, pod_use, system_daemonset);
    uses_gpus = uses_gpus || pod_use.requests_gpu;
  }
  check_driver_installer(r, object);
  check_batch(r, object, uses_gpus);
}

}  // namespace gkebuild::validate
