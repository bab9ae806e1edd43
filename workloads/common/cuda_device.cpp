#include "workloads/common/cuda_device.h"

#include <dlfcn.h>

#include <cstdio>

#include "workloads/common/errors.h"

namespace gkebuild::workloads {

void check_cuda(cudaError_t status, const std::string& what) {
  if (status == cudaSuccess) return;
  throw RunError(what + ": " + cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")");
}

std::string cuda_version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

CudaAvailability query_cuda_devices() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    cudaGetLastError();  // clear the sticky error so a later call reports its own
    // The runtime says "driver version is insufficient" also when there is no driver at all.
    if (void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL)) {
      dlclose(driver);
    } else {
      return {0, "the NVIDIA driver library libcuda.so.1 was not found (no driver visible)"};
    }
    return {0, std::string(cudaGetErrorName(status)) + ": " + cudaGetErrorString(status)};
  }
  if (count == 0) return {0, "the CUDA driver reports no devices"};
  return {count, ""};
}

nlohmann::json cuda_device_json(int index) {
  cudaDeviceProp prop{};
  check_cuda(cudaGetDeviceProperties(&prop, index), "cudaGetDeviceProperties");
  int driver = 0;
  int runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  int clock_khz = 0;
  int memory_clock_khz = 0;
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, index);
  cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, index);
  char bus_id[32] = {};
  cudaDeviceGetPCIBusId(bus_id, sizeof(bus_id), index);
  return {{"kind", "cuda"},
          {"index", index},
          {"name", prop.name},
          {"compute_capability", std::to_string(prop.major) + "." + std::to_string(prop.minor)},
          {"memory_bytes", prop.totalGlobalMem},
          {"multiprocessors", prop.multiProcessorCount},
          {"clock_mhz", clock_khz / 1000},
          {"memory_clock_mhz", memory_clock_khz / 1000},
          {"memory_bus_bits", prop.memoryBusWidth},
          {"pci_bus_id", bus_id},
          {"driver_version", cuda_version_text(driver)},
          {"runtime_version", cuda_version_text(runtime)}};
}

void require_device_memory(int index, std::size_t bytes, const std::string& what) {
  check_cuda(cudaSetDevice(index), "cudaSetDevice");
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  check_cuda(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  if (bytes <= free_bytes) return;
  char text[200];
  std::snprintf(text, sizeof(text), "%s needs %.2f GiB of device memory but only %.2f GiB of %.2f GiB are free",
                what.c_str(), bytes / 1073741824.0, free_bytes / 1073741824.0,
                total_bytes / 1073741824.0);
  throw RunError(text);
}

}  // namespace gkebuild::workloads
