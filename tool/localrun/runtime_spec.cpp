#include "localrun/runtime_spec.h"

namespace gkebuild::localrun {
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

json namespaces() {
  // No network namespace: the container uses the host's network, as hostNetwork would.
  json out = json::array();
  for (const char* type : {"pid", "ipc", "uts", "mount"}) out.push_back({{"type", type}});
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

json linux_section(json devices, json allowed) {
  return {{"resources", {{"devices", std::move(allowed)}}},
          {"devices", std::move(devices)},
          {"namespaces", namespaces()},
          {"maskedPaths",
           {"/proc/acpi", "/proc/asound", "/proc/kcore", "/proc/keys", "/proc/latency_stats", "/proc/timer_list",
            "/proc/timer_stats", "/proc/sched_debug", "/sys/firmware", "/proc/scsi"}},
          {"readonlyPaths", {"/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger"}}};
}

}  // namespace

json runtime_spec(const RuntimeInputs& inputs) {
  json mounts = default_mounts();
  for (const auto& file : inputs.host_network_files) mounts.push_back(read_only_bind(file.string(), file.string()));
  json devices = json::array();
  json allowed = json::array({{{"allow", false}, {"access", "rwm"}}});
  add_gpu(inputs.gpu, mounts, devices, allowed);
  return {{"ociVersion", "1.0.2"},
          {"process", process_json(inputs.process)},
          {"root", {{"path", inputs.rootfs.string()}, {"readonly", false}}},
          {"hostname", inputs.hostname},
          {"mounts", std::move(mounts)},
          {"linux", linux_section(std::move(devices), std::move(allowed))}};
}

std::vector<fs::path> existing_host_network_files() {
  std::vector<fs::path> out;
  for (const char* file : {"/etc/resolv.conf", "/etc/hosts"}) {
    std::error_code ec;
    if (fs::exists(file, ec)) out.emplace_back(file);
  }
  return out;
}

}  // namespace gkebuild::localrun
