#include "tool/steps/local_runner/runtime_spec.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "base/error.h"
#include "base/quantity.h"

namespace gkebuild::local_runner {
namespace fs = std::filesystem;
using nlohmann::json;
namespace {

// The capabilities and limits `runc spec` gives (runc 1.1).
json default_capabilities() {
  const json caps = {"CAP_AUDIT_WRITE", "CAP_KILL", "CAP_NET_BIND_SERVICE"};
  return {{"bounding", caps}, {"effective", caps}, {"permitted", caps}, {"ambient", caps}};
}

json process_json(const RuntimeProcess& p) {
  json user = {{"uid", p.user.uid}, {"gid", p.user.gid}};
  if (!p.user.additional_gids.empty()) user["additionalGids"] = p.user.additional_gids;
  return {{"terminal", false},
          {"user", user},
          {"args", p.args},
          {"env", p.env},
          {"cwd", p.cwd.empty() ? "/" : p.cwd},
          {"capabilities", default_capabilities()},
          {"rlimits", json::array({{{"type", "RLIMIT_NOFILE"}, {"hard", 1024}, {"soft", 1024}}})},
          {"noNewPrivileges", true}};
}

json mount(const std::string& destination, const std::string& type, const std::string& source,
           const std::vector<std::string>& options) {
  return {{"destination", destination}, {"type", type}, {"source", source}, {"options", options}};
}

json read_only_bind(const std::string& source, const std::string& destination) {
  return mount(destination, "bind", source, {"rbind", "nosuid", "nodev", "ro"});
}

json default_mounts() {
  return json::array({
      {{"destination", "/proc"}, {"type", "proc"}, {"source", "proc"}},
      mount("/dev", "tmpfs", "tmpfs", {"nosuid", "strictatime", "mode=755", "size=65536k"}),
      mount("/dev/pts", "devpts", "devpts", {"nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620", "gid=5"}),
      mount("/dev/shm", "tmpfs", "shm", {"nosuid", "noexec", "nodev", "mode=1777", "size=65536k"}),
      mount("/dev/mqueue", "mqueue", "mqueue", {"nosuid", "noexec", "nodev"}),
      mount("/sys", "sysfs", "sysfs", {"nosuid", "noexec", "nodev", "ro"}),
      mount("/sys/fs/cgroup", "cgroup", "cgroup", {"nosuid", "noexec", "nodev", "relatime", "ro"}),
  });
}

json namespaces(const RuntimeInputs& inputs) {
  // Without a network namespace the container uses the host's network, as hostNetwork would.
  json out = json::array();
  for (const char* type : {"pid", "ipc", "uts", "mount"}) out.push_back({{"type", type}});
  if (inputs.host_network) return out;
  json network = {{"type", "network"}};
  if (!inputs.network_namespace.empty()) network["path"] = inputs.network_namespace.string();
  out.push_back(std::move(network));
  return out;
}

constexpr int64_t kCpuPeriodMicros = 100000;  // the CFS default period, as the kubelet uses

// linux.resources: the device rules, and the limits runc writes into the container's cgroup.
json resources(const ResourceLimits& limits, json allowed_devices) {
  json out = {{"devices", std::move(allowed_devices)}, {"pids", {{"limit", limits.pids}}}};
  if (limits.memory_bytes) out["memory"] = {{"limit", *limits.memory_bytes}};
  if (limits.cpu_millis) {
    // As the kubelet: quota = millicores * period / 1000, at least 1 ms.
    out["cpu"] = {{"quota", std::max<int64_t>(1000, *limits.cpu_millis * kCpuPeriodMicros / 1000)},
                  {"period", kCpuPeriodMicros}};
  }
  return out;
}

void add_gpu(const HostGpu& gpu, json& mounts, json& devices, json& allowed) {
  for (const auto& d : gpu.devices) {
    const std::string type(1, d.type);
    devices.push_back({{"path", d.path}, {"type", type}, {"major", d.major}, {"minor", d.minor},
                       {"fileMode", d.mode}, {"uid", d.uid}, {"gid", d.gid}});
    allowed.push_back({{"allow", true}, {"type", type}, {"major", d.major}, {"minor", d.minor}, {"access", "rwm"}});
  }
  for (const auto& lib : gpu.libraries) {
    mounts.push_back(read_only_bind(lib.string(), std::string(kNvidiaLibraryDir) + "/" + lib.filename().string()));
  }
  for (const auto& bin : gpu.binaries) {
    mounts.push_back(read_only_bind(bin.string(), std::string(kNvidiaBinaryDir) + "/" + bin.filename().string()));
  }
}

json linux_section(const RuntimeInputs& inputs, json devices, json allowed) {
  return {{"resources", resources(inputs.limits, std::move(allowed))},
          {"devices", std::move(devices)},
          {"namespaces", namespaces(inputs)},
          {"maskedPaths",
           {"/proc/acpi", "/proc/asound", "/proc/kcore", "/proc/keys", "/proc/latency_stats", "/proc/timer_list",
            "/proc/timer_stats", "/proc/sched_debug", "/sys/firmware", "/proc/scsi"}},
          {"readonlyPaths", {"/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger"}}};
}

}  // namespace

ResourceLimits limits_from_resources(const json& resources) {
  ResourceLimits out;
  const json limits = resources.is_object() ? resources.value("limits", json::object()) : json::object();
  auto quantity = [&](const char* name) -> std::optional<double> {
    if (!limits.contains(name)) return std::nullopt;
    const json& value = limits[name];
    const auto parsed = value.is_string() ? parse_quantity(value.get<std::string>())
                        : value.is_number() ? std::optional<double>(value.get<double>())
                                            : std::nullopt;
    if (!parsed || *parsed <= 0)
      throw Error(ErrorKind::kBadInput, std::string("resources.limits.") + name + ": " + value.dump() +
                  " is not a positive quantity");
    return parsed;
  };
  // Kubernetes rounds a CPU quantity up to whole millicores and memory up to whole bytes.
  if (auto cpu = quantity("cpu")) out.cpu_millis = static_cast<int64_t>(std::ceil(*cpu * 1000));
  if (auto memory = quantity("memory")) out.memory_bytes = static_cast<int64_t>(std::ceil(*memory));
  return out;
}

json runtime_spec(const RuntimeInputs& inputs) {
  json mounts = default_mounts();
  if (inputs.host_network)
    for (const auto& file : inputs.host_network_files) mounts.push_back(read_only_bind(file.string(), file.string()));
  if (!inputs.host_network && !inputs.hosts_file.empty())
    mounts.push_back(read_only_bind(inputs.hosts_file.string(), "/etc/hosts"));
  json devices = json::array();
  json allowed = json::array({{{"allow", false}, {"access", "rwm"}}});
  add_gpu(inputs.gpu, mounts, devices, allowed);
  return {{"ociVersion", "1.0.2"},
          {"process", process_json(inputs.process)},
          {"root", {{"path", inputs.rootfs.string()}, {"readonly", false}}},
          {"hostname", inputs.hostname},
          {"mounts", std::move(mounts)},
          {"linux", linux_section(inputs, std::move(devices), std::move(allowed))}};
}

std::vector<fs::path> existing_host_network_files() {
  std::vector<fs::path> out;
  for (const char* file : {"/etc/resolv.conf", "/etc/hosts"}) {
    std::error_code ec;
    if (fs::exists(file, ec)) out.emplace_back(file);
  }
  return out;
}

}  // namespace gkebuild::local_runner
