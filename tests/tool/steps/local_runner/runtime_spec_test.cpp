#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/error.h"
#include "tests/common/temp_dir.h"
#include "base/atomic_file.h"
#include "tool/steps/local_runner/cgroup_controllers.h"
#include "tool/steps/local_runner/runtime_spec.h"

namespace gkebuild::local_runner {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::TempDir;

RuntimeInputs inputs() {
  RuntimeInputs in;
  in.process.args = {"/bin/app", "x"};
  in.process.env = {"PATH=/bin", "A=1"};
  in.process.cwd = "/work";
  in.process.user = ContainerUser{1000, 1001, {50}};
  in.rootfs = "/var/bundle/rootfs";
  in.hostname = "job-a";
  in.host_network_files = {"/etc/resolv.conf"};
  return in;
}

const json* mount_at(const json& spec, const std::string& destination) {
  for (const auto& m : spec["mounts"]) {
    if (m["destination"] == destination) return &m;
  }
  return nullptr;
}

std::vector<std::string> namespaces(const json& spec) {
  std::vector<std::string> out;
  for (const auto& n : spec["linux"]["namespaces"]) out.push_back(n["type"]);
  return out;
}

TEST(RuntimeSpec, ProcessComesFromTheInputs) {
  const json spec = runtime_spec(inputs());
  const json& p = spec["process"];
  EXPECT_EQ(p["args"], json({"/bin/app", "x"}));
  EXPECT_EQ(p["env"], json({"PATH=/bin", "A=1"}));
  EXPECT_EQ(p["cwd"], "/work");
  EXPECT_EQ(p["user"], json({{"uid", 1000}, {"gid", 1001}, {"additionalGids", {50}}}));
  EXPECT_EQ(p["terminal"], false);
  EXPECT_EQ(p["capabilities"]["bounding"], json({"CAP_AUDIT_WRITE", "CAP_KILL", "CAP_NET_BIND_SERVICE"}));
  EXPECT_EQ(spec["root"], json({{"path", "/var/bundle/rootfs"}, {"readonly", false}}));
  EXPECT_EQ(spec["hostname"], "job-a");
}

TEST(RuntimeSpec, DefaultMountsAndAPrivateNetwork) {
  const json spec = runtime_spec(inputs());
  for (const char* d : {"/proc", "/dev", "/dev/pts", "/dev/shm", "/dev/mqueue", "/sys"}) {
    EXPECT_NE(mount_at(spec, d), nullptr) << d;
  }
  EXPECT_EQ((*mount_at(spec, "/sys"))["options"].back(), "ro");
  EXPECT_EQ(mount_at(spec, "/etc/resolv.conf"), nullptr);  // the host's resolver is not reachable from here
  EXPECT_EQ(namespaces(spec), (std::vector<std::string>{"pid", "ipc", "uts", "mount", "network"}));
  EXPECT_TRUE(spec["linux"]["devices"].empty());
  EXPECT_EQ(spec["linux"]["resources"]["devices"], json::parse(R"([{"allow":false,"access":"rwm"}])"));
  EXPECT_EQ(mount_at(spec, "/usr/local/nvidia/lib64/libcuda.so.1"), nullptr);
}

TEST(RuntimeSpec, TheHostsNetworkWhenAsked) {
  RuntimeInputs in = inputs();
  in.host_network = true;
  const json spec = runtime_spec(in);
  const json* resolv = mount_at(spec, "/etc/resolv.conf");
  ASSERT_NE(resolv, nullptr);
  EXPECT_EQ((*resolv)["source"], "/etc/resolv.conf");
  EXPECT_EQ(namespaces(spec), (std::vector<std::string>{"pid", "ipc", "uts", "mount"}));
}

// The Job's limits become linux.resources as the kubelet sets them: a CFS quota per 100 ms
// period for CPU, bytes for memory; a pids limit always.
TEST(RuntimeSpec, ResourceLimitsFromTheJob) {
  RuntimeInputs in = inputs();
  in.limits = limits_from_resources(json::parse(R"({"limits": {"cpu": "1500m", "memory": "2Gi", "nvidia.com/gpu": 1},
                                                    "requests": {"cpu": "1"}})"));
  const json resources = runtime_spec(in)["linux"]["resources"];
  EXPECT_EQ(resources["cpu"], json::parse(R"({"quota": 150000, "period": 100000})"));
  EXPECT_EQ(resources["memory"], json::parse(R"({"limit": 2147483648})"));
  EXPECT_EQ(resources["pids"], json::parse(R"({"limit": 4096})"));

  const json unlimited = runtime_spec(inputs())["linux"]["resources"];
  EXPECT_FALSE(unlimited.contains("cpu"));
  EXPECT_FALSE(unlimited.contains("memory"));
  EXPECT_EQ(unlimited["pids"]["limit"], 4096);

  EXPECT_EQ(limits_from_resources(json::parse(R"({"limits": {"cpu": 2, "memory": "1e3"}})")).cpu_millis, 2000);
  EXPECT_EQ(limits_from_resources(json::parse(R"({"limits": {"cpu": "0.0001"}})")).cpu_millis, 1);
  EXPECT_EQ(limits_from_resources(json::parse(R"({"limits": {"memory": "1e3"}})")).memory_bytes, 1000);
  EXPECT_FALSE(limits_from_resources(json::object()).memory_bytes);
  EXPECT_THROW(limits_from_resources(json::parse(R"({"limits": {"memory": "lots"}})")), gkebuild::Error);
  EXPECT_THROW(limits_from_resources(json::parse(R"({"limits": {"cpu": "0"}})")), gkebuild::Error);
}

TEST(RuntimeSpec, GpuDevicesAndDriverFilesAsOnGke) {
  RuntimeInputs in = inputs();
  in.gpu.devices = {DeviceNode{"/dev/nvidia0", 'c', 195, 0, 0666, 0, 0},
                    DeviceNode{"/dev/nvidiactl", 'c', 195, 255, 0666, 0, 0},
                    DeviceNode{"/dev/nvidia-uvm", 'c', 510, 0, 0666, 0, 0}};
  in.gpu.libraries = {"/usr/lib/x86_64-linux-gnu/libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1"};
  in.gpu.binaries = {"/usr/bin/nvidia-smi"};
  const json spec = runtime_spec(in);
  const json& devices = spec["linux"]["devices"];
  ASSERT_EQ(devices.size(), 3u);
  EXPECT_EQ(devices[1], json::parse(R"({"path":"/dev/nvidiactl","type":"c","major":195,"minor":255,
                                        "fileMode":438,"uid":0,"gid":0})"));
  const json& allowed = spec["linux"]["resources"]["devices"];
  ASSERT_EQ(allowed.size(), 4u);
  EXPECT_EQ(allowed[0]["allow"], false);
  EXPECT_EQ(allowed[3], json::parse(R"({"allow":true,"type":"c","major":510,"minor":0,"access":"rwm"})"));
  const json* cuda = mount_at(spec, "/usr/local/nvidia/lib64/libcuda.so.1");
  ASSERT_NE(cuda, nullptr);
  EXPECT_EQ((*cuda)["source"], "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
  EXPECT_EQ((*cuda)["type"], "bind");
  EXPECT_NE(mount_at(spec, "/usr/local/nvidia/lib64/libnvidia-ml.so.1"), nullptr);
  EXPECT_NE(mount_at(spec, "/usr/local/nvidia/bin/nvidia-smi"), nullptr);
}

// A fake /dev with device nodes (mknod needs root) and fake driver folders.
TEST(CgroupControllers, TheLimitsNeedTheirControllers) {
  ResourceLimits limits;
  limits.cpu_millis = 500;
  limits.memory_bytes = 1 << 30;
  const std::string v1 = "9:name=systemd:/\n8:pids:/\n4:memory:/a\n2:cpu,cpuacct:/\n0::/\n";
  EXPECT_TRUE(missing_cgroup_controllers(limits, v1, "").empty());
  EXPECT_EQ(missing_cgroup_controllers(limits, "9:name=systemd:/\n2:cpu,cpuacct:/\n0::/\n", ""),
            (std::vector<std::string>{"memory", "pids"}));
  // v2 only: the unified hierarchy's cgroup.controllers.
  EXPECT_TRUE(missing_cgroup_controllers(limits, "0::/user.slice\n", "cpuset cpu io memory hugetlb pids rdma\n").empty());
  EXPECT_EQ(missing_cgroup_controllers(limits, "0::/\n", "cpuset io pids\n"), (std::vector<std::string>{"cpu", "memory"}));
  EXPECT_EQ(missing_cgroup_controllers(ResourceLimits{}, "0::/\n", "cpu memory\n"), (std::vector<std::string>{"pids"}));
}

TEST(HostGpu, FindsNvidiaDevicesAndDriverFiles) {
  if (::geteuid() != 0) GTEST_SKIP() << "making device nodes needs root";
  TempDir dir;
  fs::create_directories(dir / "dev/nvidia-caps");
  ASSERT_EQ(::mknod((dir / "dev/nvidia0").c_str(), S_IFCHR | 0666, makedev(195, 0)), 0);
  ASSERT_EQ(::mknod((dir / "dev/nvidiactl").c_str(), S_IFCHR | 0666, makedev(195, 255)), 0);
  ASSERT_EQ(::mknod((dir / "dev/nvidia-caps/nvidia-cap1").c_str(), S_IFCHR | 0400, makedev(236, 1)), 0);
  ASSERT_EQ(::mknod((dir / "dev/null").c_str(), S_IFCHR | 0666, makedev(1, 3)), 0);
  write_file_atomically(dir / "dev/nvidia-notadevice", "");
  for (const char* f : {"a/libcuda.so.535.1", "a/libnvidia-ml.so.1", "a/libc.so.6", "b/libcuda.so.535.1",
                        "b/libnvidia-ptxjitcompiler.so.1", "bin/nvidia-smi", "bin/other"}) {
    write_file_atomically(dir / f, "x");
  }
  fs::create_symlink("libcuda.so.535.1", dir / "a/libcuda.so.1");

  const HostGpu gpu = find_host_gpu(dir / "dev", {dir / "a", dir / "b"}, {dir / "bin"});
  std::vector<std::string> devices;
  for (const auto& d : gpu.devices) devices.push_back(d.path.substr(dir.path().string().size()));
  EXPECT_EQ(devices, (std::vector<std::string>{"/dev/nvidia0", "/dev/nvidiactl", "/dev/nvidia-caps/nvidia-cap1"}));
  EXPECT_EQ(gpu.devices[1].minor, 255);
  EXPECT_EQ(gpu.devices[2].mode, 0400u);
  EXPECT_EQ(gpu.libraries, (std::vector<fs::path>{dir / "a/libcuda.so.1", dir / "a/libcuda.so.535.1",
                                                  dir / "a/libnvidia-ml.so.1", dir / "b/libnvidia-ptxjitcompiler.so.1"}));
  EXPECT_EQ(gpu.binaries, (std::vector<fs::path>{dir / "bin/nvidia-smi"}));
}

TEST(HostGpu, NoDevicesMeansNoGpu) {
  TempDir dir;
  write_file_atomically(dir / "lib/libcuda.so.1", "x");
  const HostGpu gpu = find_host_gpu(dir.path(), {dir / "lib"}, {});
  EXPECT_FALSE(gpu.present());
  EXPECT_TRUE(gpu.libraries.empty());
}

}  // namespace
}  // namespace gkebuild::local_runner
