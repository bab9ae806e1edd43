// Which device a workload runs on: a CUDA device when one is visible (or asked for), else the
// CPU path. The same command line works on a GPU node and on a laptop.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "workloads/common/common_options.h"

namespace gkebuild::workloads {

enum class DeviceKind { cpu, cuda };

struct Device {
  DeviceKind kind = DeviceKind::cpu;
  int index = 0;    // CUDA ordinal
  int threads = 1;  // CPU threads of the CPU path (and of CPU reference checks)
  std::string name;
};

struct CudaAvailability {
  int count = 0;
  std::string reason;  // why there is none, when count is 0
};

// Asks the CUDA runtime; never fails: no driver or a build without CUDA is a count of 0.
CudaAvailability cuda_availability();

// The usual causes on GKE when a container sees no GPU, one per line.
std::string no_cuda_device_help();

// Resolves --device and --threads. Throws UsageError for a malformed --device and RunError
// when a CUDA device was asked for but none is usable. Says on stderr what it chose.
Device select_device(const CommonOptions& options, const std::string& program);

// {"kind", "index", "name", …}: for CUDA also compute capability, memory and versions.
nlohmann::json device_json(const Device& device);

}  // namespace gkebuild::workloads
