// The OCI runtime bundle's config.json for one container: runc's default spec (`runc spec`:
// mounts, capabilities, masked paths) with the image's and the Job's process, its own network
// namespace (or the host's network, when asked), the Job's CPU and memory limits and a pids
// limit (linux.resources, which runc applies with cgroups), and - for a GPU container on a
// host with one - the NVIDIA devices and the driver files bind-mounted under
// /usr/local/nvidia, as GKE does.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tool/steps/local_runner/container_user.h"
#include "tool/steps/local_runner/host_gpu.h"

namespace gkebuild::local_runner {

struct RuntimeProcess {
  std::vector<std::string> args;
  std::vector<std::string> env;  // "NAME=value"
  std::string cwd = "/";
  ContainerUser user;
};

// What the container may use, from the Job's resources.limits; unset means no limit.
struct ResourceLimits {
  std::optional<int64_t> memory_bytes;
  std::optional<int64_t> cpu_millis;  // 1500 for "1.5": a CFS quota per period
  int64_t pids = 4096;  // processes and threads: a fork bomb stops here, not at the host's limit
};

// The limits a Kubernetes container's resources.limits set (cpu, memory as quantities);
// throws gkebuild::Error (bad input) naming a value that is not a positive quantity.
ResourceLimits limits_from_resources(const nlohmann::json& resources);

struct RuntimeInputs {
  RuntimeProcess process;
  std::filesystem::path rootfs;  // absolute
  std::string hostname;
  // false: a network namespace of its own (loopback only), so the container cannot reach the
  // host's services or the network; true: the host's network, as hostNetwork would.
  bool host_network = false;
  // Host files bind-mounted read-only at the same path (/etc/resolv.conf, /etc/hosts) when the
  // container shares the host's network, so that it resolves names like the host.
  std::vector<std::filesystem::path> host_network_files;
  // Not host_network: a network namespace to join (empty: a new one), and a file bind-mounted
  // read-only at /etc/hosts (empty: the image's).
  std::filesystem::path network_namespace;
  std::filesystem::path hosts_file;
  ResourceLimits limits;
  HostGpu gpu;  // empty: no GPU passed through
};

nlohmann::json runtime_spec(const RuntimeInputs& inputs);

// The host's network files that exist (for host_network_files).
std::vector<std::filesystem::path> existing_host_network_files();

}  // namespace gkebuild::local_runner
