// The OCI runtime bundle's config.json for one container: runc's default spec (`runc spec`:
// mounts, capabilities, masked paths) with the image's and the Job's process, the host's
// network, and - for a GPU container on a host with one - the NVIDIA devices and the driver
// files bind-mounted under /usr/local/nvidia, as GKE does.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "localrun/container_user.h"
#include "localrun/host_gpu.h"

namespace gkebuild::localrun {

struct RuntimeProcess {
  std::vector<std::string> args;
  std::vector<std::string> env;  // "NAME=value"
  std::string cwd = "/";
  ContainerUser user;
};

struct RuntimeInputs {
  RuntimeProcess process;
  std::filesystem::path rootfs;  // absolute
  std::string hostname;
  // Host files bind-mounted read-only at the same path (/etc/resolv.conf, /etc/hosts): the
  // container shares the host's network, so it resolves names like the host.
  std::vector<std::filesystem::path> host_network_files;
  HostGpu gpu;  // empty: no GPU passed through
};

nlohmann::json runtime_spec(const RuntimeInputs& inputs);

// The host's network files that exist (for host_network_files).
std::vector<std::filesystem::path> existing_host_network_files();

}  // namespace gkebuild::localrun
