#include "tool/steps/local_runner/host_gpu.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <set>

namespace gkebuild::local_runner {
namespace fs = std::filesystem;
namespace {

bool is_driver_library(const std::string& name) {
  return name.starts_with("libcuda.so") ||
         (name.starts_with("libnvidia-") && name.find(".so") != std::string::npos);
}

void add_device(const fs::path& path, std::vector<DeviceNode>& out) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !(S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))) return;
  out.push_back(DeviceNode{path.string(), S_ISCHR(st.st_mode) ? 'c' : 'b', major(st.st_rdev),
                           minor(st.st_rdev), static_cast<uint32_t>(st.st_mode & 07777), st.st_uid,
                           st.st_gid});
}

std::vector<fs::path> sorted_entries(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) out.push_back(it->path());
  std::sort(out.begin(), out.end());
  return out;
}

// Files of `dirs` that `wanted` accepts, the first of each name.
template <typename Wanted>
std::vector<fs::path> first_of_each_name(const std::vector<fs::path>& dirs, Wanted wanted) {
  std::vector<fs::path> out;
  std::set<std::string> seen;
  for (const auto& dir : dirs) {
    for (const auto& path : sorted_entries(dir)) {
      const std::string name = path.filename().string();
      std::error_code ec;
      if (wanted(name) && fs::is_regular_file(path, ec) && seen.insert(name).second) out.push_back(path);
    }
  }
  return out;
}

}  // namespace

HostGpu find_host_gpu(const fs::path& dev_dir, const std::vector<fs::path>& library_dirs,
                      const std::vector<fs::path>& binary_dirs) {
  HostGpu gpu;
  for (const auto& path : sorted_entries(dev_dir)) {
    if (path.filename().string().starts_with("nvidia")) add_device(path, gpu.devices);
  }
  for (const auto& path : sorted_entries(dev_dir / "nvidia-caps")) add_device(path, gpu.devices);
  if (!gpu.present()) return gpu;
  gpu.libraries = first_of_each_name(library_dirs, is_driver_library);
  gpu.binaries = first_of_each_name(binary_dirs, [](const std::string& name) { return name == "nvidia-smi"; });
  return gpu;
}

HostGpu find_host_gpu() {
  return find_host_gpu("/dev",
                       {"/usr/local/nvidia/lib64", "/home/kubernetes/bin/nvidia/lib64", "/usr/lib/x86_64-linux-gnu",
                        "/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib"},
                       {"/usr/local/nvidia/bin", "/home/kubernetes/bin/nvidia/bin", "/usr/bin", "/bin"});
}

}  // namespace gkebuild::local_runner
