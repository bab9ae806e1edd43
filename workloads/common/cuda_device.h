// CUDA runtime queries and error checks, built only with CUDA. The runtime loads libcuda
// lazily, so a binary linked with it starts on a machine without any driver.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "workloads/common/device.h"

namespace gkebuild::workloads {

// Throws RunError "<what>: <CUDA error text>" unless status is cudaSuccess.
void check_cuda(cudaError_t status, const std::string& what);

CudaAvailability query_cuda_devices();

// {"kind":"cuda", "index", "name", "compute_capability", "memory_bytes", "multiprocessors",
//  "clock_mhz", "memory_clock_mhz", "memory_bus_bits", "driver_version", "runtime_version"}
nlohmann::json cuda_device_json(int index);

// Selects the device and throws RunError naming the shortfall when fewer than `bytes` are
// free on it: the clear message for sizes that do not fit.
void require_device_memory(int index, std::size_t bytes, const std::string& what);

// "13.0" from 13000.
std::string cuda_version_text(int version);

}  // namespace gkebuild::workloads
