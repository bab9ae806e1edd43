// What a GPU container needs from the host: the NVIDIA device nodes and the driver's
// user-space libraries (and nvidia-smi), which GKE mounts at /usr/local/nvidia.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace gkebuild::local_runner {

struct DeviceNode {
  std::string path;  // as the container sees it, the same as on the host: "/dev/nvidia0"
  char type = 'c';   // 'c' or 'b'
  int64_t major = 0;
  int64_t minor = 0;
  uint32_t mode = 0666;  // permission bits
  uint32_t uid = 0;
  uint32_t gid = 0;
};

struct HostGpu {
  std::vector<DeviceNode> devices;
  std::vector<std::filesystem::path> libraries;  // libcuda.so*, libnvidia-*.so*
  std::vector<std::filesystem::path> binaries;   // nvidia-smi
  bool present() const { return !devices.empty(); }
};

// Where the driver libraries and nvidia-smi land in the container, as on GKE.
inline constexpr const char* kNvidiaLibraryDir = "/usr/local/nvidia/lib64";
inline constexpr const char* kNvidiaBinaryDir = "/usr/local/nvidia/bin";

// The NVIDIA character devices under `dev_dir` (nvidia0…, nvidiactl, nvidia-uvm…,
// nvidia-caps/*) and the driver files in `library_dirs` (the first of a name wins).
// Empty `devices` when the host has no NVIDIA GPU.
HostGpu find_host_gpu(const std::filesystem::path& dev_dir, const std::vector<std::filesystem::path>& library_dirs,
                      const std::vector<std::filesystem::path>& binary_dirs);

// The same, from this machine's usual places.
HostGpu find_host_gpu();

}  // namespace gkebuild::local_runner
