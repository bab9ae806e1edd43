// gpu-info: what nvidia-smi would say, from inside the container: each CUDA device's name,
// compute capability, memory, multiprocessors, clocks, driver and runtime versions. One result
// line per device on stdout; exit 1 with the usual GKE causes when no device is visible.
#include <cstdio>
#include <iostream>

#include "base/exit_codes.h"
#include "workloads/common/device.h"
#include "workloads/common/program.h"
#include "workloads/common/results.h"

using namespace gkebuild::workloads;

namespace {

void print_device(const nlohmann::json& d) {
  std::fprintf(stderr, "cuda:%d  %s  compute %s  %.1f GiB  %d SMs  %d MHz (memory %d MHz, %d-bit)  "
               "driver %s  runtime %s\n",
               d.value("index", 0), d.value("name", "").c_str(),
               d.value("compute_capability", "").c_str(),
               d.value("memory_bytes", 0.0) / 1073741824.0, d.value("multiprocessors", 0),
               d.value("clock_mhz", 0), d.value("memory_clock_mhz", 0), d.value("memory_bus_bits", 0),
               d.value("driver_version", "").c_str(), d.value("runtime_version", "").c_str());
}

int report_devices() {
  const CudaAvailability cuda = cuda_availability();
  if (cuda.count == 0) {
    std::cerr << "gpu-info: no CUDA device visible: " << cuda.reason << "\n"
              << no_cuda_device_help();
    return gkebuild::cli::kExitFailure;
  }
  for (int index = 0; index < cuda.count; ++index) {
    const Device device{DeviceKind::cuda, index, 1, ""};
    const nlohmann::json facts = device_json(device);
    print_device(facts);
    ResultWriter writer(std::cout, "gpu-info", facts);
    Measurement m;
    m.metric = "memory";
    m.value = facts.value("memory_bytes", 0.0) / 1073741824.0;
    m.unit = "GiB";
    m.extra = {{"device_count", cuda.count}};
    writer.write(m);
  }
  return gkebuild::cli::kExitSuccess;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("Show the CUDA devices this container sees (exit 1 when there is none)", "gpu-info");
  if (auto code = parse_command_line(app, argc, argv)) return *code;
  return run_guarded("gpu-info", report_devices);
}
