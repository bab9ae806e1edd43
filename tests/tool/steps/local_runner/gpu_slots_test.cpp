// Issue 42: local points side by side, each given GPUs of its own. Which GPUs a Job gets and
// what its container's spec then holds, without a GPU on the machine.
#include <gtest/gtest.h>

#include <algorithm>

#include "tool/steps/local_runner/gpu_slots.h"
#include "tool/steps/local_runner/runtime_spec.h"

namespace gkebuild::local_runner {
namespace {

using nlohmann::json;

// A host with four GPUs: nvidia0..3 (major 195, minor N), nvidiactl (195/255), nvidia-uvm and a cap.
HostGpu four_gpus() {
  HostGpu host;
  for (int i = 0; i < 4; ++i) host.devices.push_back({"/dev/nvidia" + std::to_string(i), 'c', 195, i});
  host.devices.push_back({"/dev/nvidiactl", 'c', 195, 255});
  host.devices.push_back({"/dev/nvidia-uvm", 'c', 509, 0});
  host.devices.push_back({"/dev/nvidia-caps/nvidia-cap1", 'c', 235, 1});
  host.libraries = {"/usr/lib/x86_64-linux-gnu/libcuda.so.1"};
  return host;
}

std::vector<std::string> device_paths(const json& spec) {
  std::vector<std::string> out;
  for (const auto& device : spec["linux"]["devices"]) out.push_back(device["path"]);
  return out;
}

TEST(GpuSlots, TheHostsGpusAreItsNumberedDevices) {
  EXPECT_EQ(gpu_indexes(four_gpus()), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_TRUE(gpu_indexes(HostGpu{}).empty());
  HostGpu control_only;
  control_only.devices.push_back({"/dev/nvidiactl", 'c', 195, 255});
  EXPECT_TRUE(gpu_indexes(control_only).empty());
}

TEST(GpuSlots, AJobGetsTheLowestFreeGpusOrWaits) {
  EXPECT_EQ(assign_gpus({0, 1, 2, 3}, 2), (std::vector<int>{0, 1}));
  EXPECT_EQ(assign_gpus({1, 3}, 1), (std::vector<int>{1}));
  EXPECT_EQ(assign_gpus({1, 3}, 2), (std::vector<int>{1, 3}));
  EXPECT_EQ(assign_gpus({1, 3}, 3), std::nullopt);  // more than are free: it waits
  EXPECT_EQ(assign_gpus({}, 1), std::nullopt);
  EXPECT_EQ(assign_gpus({}, 0), std::vector<int>{});  // a CPU Job needs none
}

// Two Jobs given GPUs one after the other never share one.
TEST(GpuSlots, TwoJobsNeverShareAGpu) {
  std::set<int> free = {0, 1, 2, 3};
  const auto first = *assign_gpus(free, 2);
  for (int gpu : first) free.erase(gpu);
  const auto second = *assign_gpus(free, 2);
  for (int gpu : second) EXPECT_EQ(std::count(first.begin(), first.end(), gpu), 0) << gpu;
}

TEST(GpuSlots, TheContainerSeesOnlyItsGpusAndNamesThem) {
  RuntimeInputs in;
  in.process.args = {"/bin/app"};
  in.process.env = {"PATH=/bin", "NVIDIA_VISIBLE_DEVICES=all"};  // as CUDA images set it
  in.rootfs = "/var/bundle/rootfs";
  give_gpus(in, four_gpus(), {1, 3});
  const json spec = runtime_spec(in);
  EXPECT_EQ(device_paths(spec), (std::vector<std::string>{"/dev/nvidia1", "/dev/nvidia3", "/dev/nvidiactl",
                                                          "/dev/nvidia-uvm", "/dev/nvidia-caps/nvidia-cap1"}));
  const auto env = spec["process"]["env"].get<std::vector<std::string>>();
  EXPECT_EQ(env, (std::vector<std::string>{"PATH=/bin", "NVIDIA_VISIBLE_DEVICES=1,3"}));
  // The cgroup allows the given GPUs' device numbers, not the others'.
  std::vector<int> allowed_minors;
  for (const auto& rule : spec["linux"]["resources"]["devices"])
    if (rule["allow"] == true && rule["major"] == 195) allowed_minors.push_back(rule["minor"]);
  EXPECT_EQ(allowed_minors, (std::vector<int>{1, 3, 255}));
  EXPECT_FALSE(spec["mounts"].dump().find("libcuda.so.1") == std::string::npos);  // the driver still reaches it
}

}  // namespace
}  // namespace gkebuild::local_runner
