#include "workloads/common/device.h"

#include <iostream>

#include "workloads/common/errors.h"
#include "workloads/common/host_facts.h"
#include "workloads/common/thread_count.h"
#if GKEBUILD_WITH_CUDA
#include "workloads/common/cuda_device.h"
#endif

namespace gkebuild::workloads {
namespace {

// "cuda" -> 0, "cuda:3" -> 3; throws UsageError otherwise.
int cuda_ordinal(const std::string& text) {
  if (text == "cuda") return 0;
  const std::string digits = text.substr(5);
  if (text.rfind("cuda:", 0) != 0 || digits.empty() || digits.size() > 4 ||
      digits.find_first_not_of("0123456789") != std::string::npos) {
    throw UsageError("--device '" + text + "': expected auto, cpu, cuda or cuda:N");
  }
  return std::stoi(digits);
}

Device cpu_device(int threads) {
  return Device{DeviceKind::cpu, 0, thread_count(threads), cpu_model()};
}

}  // namespace

CudaAvailability cuda_availability() {
#if GKEBUILD_WITH_CUDA
  return query_cuda_devices();
#else
  return {0, "this build has no CUDA support (nvcc was not found when it was built)"};
#endif
}

std::string no_cuda_device_help() {
  return "usual causes on GKE:\n"
         "  - the container has no `nvidia.com/gpu` limit, so no GPU was assigned to it\n"
         "  - the NVIDIA driver is not installed on the node (driver installer DaemonSet or\n"
         "    gpu-driver-version on the node pool)\n"
         "  - LD_LIBRARY_PATH does not include /usr/local/nvidia/lib64, where GKE mounts libcuda\n";
}

Device select_device(const CommonOptions& options, const std::string& program) {
  if (options.device == "cpu") return cpu_device(options.threads);
  if (options.device != "auto") {
    const int ordinal = cuda_ordinal(options.device);
    const CudaAvailability cuda = cuda_availability();
    if (ordinal >= cuda.count) {
      const std::string why = cuda.count == 0 ? cuda.reason
                                              : std::to_string(cuda.count) + " device(s) visible";
      throw RunError("no CUDA device " + std::to_string(ordinal) + ": " + why + "\n" +
                     no_cuda_device_help() + "use --device cpu for the CPU path");
    }
    Device device{DeviceKind::cuda, ordinal, thread_count(options.threads), ""};
    device.name = device_json(device).value("name", "");
    return device;
  }
  const CudaAvailability cuda = cuda_availability();
  if (cuda.count == 0) {
    std::cerr << program << ": no CUDA device (" << cuda.reason << "); running the CPU path\n";
    return cpu_device(options.threads);
  }
  Device device{DeviceKind::cuda, 0, thread_count(options.threads), ""};
  device.name = device_json(device).value("name", "");
  return device;
}

nlohmann::json device_json(const Device& device) {
  if (device.kind == DeviceKind::cpu) {
    return {{"kind", "cpu"}, {"index", 0}, {"name", device.name}, {"threads", device.threads}};
  }
#if GKEBUILD_WITH_CUDA
  return cuda_device_json(device.index);
#else
  throw RunError("this build has no CUDA support");
#endif
}

}  // namespace gkebuild::workloads
