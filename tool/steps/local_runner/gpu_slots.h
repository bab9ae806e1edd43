// Which of the host's GPUs a local container gets, so that Jobs run side by side never share
// one: each container is given only its GPUs' device nodes (/dev/nvidiaN; the shared ones,
// nvidiactl, nvidia-uvm and nvidia-caps, always) and NVIDIA_VISIBLE_DEVICES naming them, as
// the NVIDIA container toolkit does for a pod given `nvidia.com/gpu`.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tool/steps/local_runner/host_gpu.h"
#include "tool/steps/local_runner/runtime_spec.h"

namespace gkebuild::local_runner {

// N of each /dev/nvidiaN among the host's devices, ascending.
std::vector<int> gpu_indexes(const HostGpu& gpu);

// The `wanted` lowest GPUs of `free`; nullopt when fewer are free (the Job waits). 0 wanted: {}.
std::optional<std::vector<int>> assign_gpus(const std::set<int>& free, int wanted);

// `gpu` with only the GPUs `indexes` names (the shared control devices and the driver files kept).
HostGpu only_gpus(const HostGpu& gpu, const std::vector<int>& indexes);

// "0,2": NVIDIA_VISIBLE_DEVICES for `indexes`.
std::string visible_devices(const std::vector<int>& indexes);

// Gives the container the GPUs `indexes` of `host`: their devices, the driver files, and
// NVIDIA_VISIBLE_DEVICES in its environment (replacing the image's, e.g. CUDA images' "all").
void give_gpus(RuntimeInputs& inputs, const HostGpu& host, const std::vector<int>& indexes);

}  // namespace gkebuild::local_runner
