#include "tool/steps/local_runner/gpu_slots.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace gkebuild::local_runner {
namespace {

constexpr const char* kVisibleDevices = "NVIDIA_VISIBLE_DEVICES=";

// N for /dev/nvidiaN (one GPU's node); -1 for the shared ones (nvidiactl, nvidia-uvm, caps).
int index_of(const DeviceNode& device) {
  const std::string name = std::filesystem::path(device.path).filename().string();
  const std::string digits = name.starts_with("nvidia") ? name.substr(6) : "";
  if (digits.empty() || digits.size() > 4 ||
      !std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c); }))
    return -1;
  return std::stoi(digits);
}

}  // namespace

std::vector<int> gpu_indexes(const HostGpu& gpu) {
  std::set<int> found;
  for (const auto& device : gpu.devices)
    if (const int index = index_of(device); index >= 0) found.insert(index);
  return {found.begin(), found.end()};
}

std::optional<std::vector<int>> assign_gpus(const std::set<int>& free, int wanted) {
  if (wanted < 0 || free.size() < static_cast<std::size_t>(wanted)) return std::nullopt;
  return std::vector<int>(free.begin(), std::next(free.begin(), wanted));
}

HostGpu only_gpus(const HostGpu& gpu, const std::vector<int>& indexes) {
  HostGpu out = gpu;
  std::erase_if(out.devices, [&](const DeviceNode& device) {
    const int index = index_of(device);
    return index >= 0 && std::find(indexes.begin(), indexes.end(), index) == indexes.end();
  });
  return out;
}

std::string visible_devices(const std::vector<int>& indexes) {
  std::string out;
  for (const int index : indexes) out += (out.empty() ? "" : ",") + std::to_string(index);
  return out;
}

void give_gpus(RuntimeInputs& inputs, const HostGpu& host, const std::vector<int>& indexes) {
  inputs.gpu = only_gpus(host, indexes);
  auto& env = inputs.process.env;
  std::erase_if(env, [](const std::string& entry) { return entry.starts_with(kVisibleDevices); });
  env.push_back(kVisibleDevices + visible_devices(indexes));
}

}  // namespace gkebuild::local_runner
