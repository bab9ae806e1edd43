#include "tool/steps/local_runner/local_run.h"

#include <unistd.h>

#include <cctype>
#include <ctime>
#include <stdexcept>

#include "base/rfc3339.h"
#include "tool/steps/local_runner/bundle.h"
#include "tool/steps/local_runner/cgroup_controllers.h"
#include "tool/steps/local_runner/container_process.h"
#include "tool/steps/local_runner/image_cache.h"
#include "tool/steps/local_runner/process_spec.h"
#include "tool/steps/local_runner/runtime_cli.h"
#include "tool/steps/local_runner/runtime_spec.h"

namespace gkebuild::local_runner {
namespace fs = std::filesystem;
namespace {


void check_can_run(const ContainerSpec& spec) {
  if (::geteuid() != 0) {
    throw std::runtime_error("running locally needs root: runc and crun run rootful containers here "
                             "(run gkebuild as root or with sudo)");
  }
  bool valid = !spec.name.empty() && spec.name.size() <= 200;
  for (char c : spec.name) valid = valid && (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.');
  if (!valid || spec.name.front() == '.') {
    throw std::runtime_error("'" + spec.name + "' is not a valid container name (letters, digits, '-', '_', '.')");
  }
}

// The runtime's state folder: one per runtime binary, so runc and crun never share one.
fs::path state_root(const fs::path& work_dir, const std::string& runtime) {
  return work_dir / "state" / fs::path(runtime).filename();
}

RuntimeInputs inputs_for(const ContainerSpec& spec, const UnpackedImage& image, const fs::path& rootfs) {
  RuntimeInputs in;
  const auto& config = image.config.config;
  in.process.args = process_args(config, spec.command, spec.args, spec.env);
  in.process.env = process_env(config, spec.env, spec.name);
  in.process.cwd = !spec.working_dir.empty() ? spec.working_dir : config.working_dir.empty() ? "/" : config.working_dir;
  in.process.user = resolve_user(config.user, image.rootfs);
  in.rootfs = rootfs;
  in.hostname = (spec.hostname.empty() ? spec.name : spec.hostname).substr(0, 63);
  in.host_network = spec.host_network;
  in.network_namespace = spec.network_namespace;
  in.hosts_file = spec.hosts_file;
  if (spec.host_network) in.host_network_files = existing_host_network_files();
  in.limits = spec.limits;
  if (spec.gpus) in.gpu = find_host_gpu();
  return in;
}

// Deletes the container on every way out of run_container.
class ContainerGuard {
 public:
  ContainerGuard(const RuntimeCli& cli, const std::string& name) : cli_(cli), name_(name) {}
  ~ContainerGuard() { cli_.remove(name_); }
  ContainerGuard(const ContainerGuard&) = delete;
  ContainerGuard& operator=(const ContainerGuard&) = delete;

 private:
  const RuntimeCli& cli_;
  const std::string& name_;
};

std::string reason_for(const StreamedExit& exit, const std::string& runtime_error) {
  if (exit.stopped) return "Stopped";
  if (!runtime_error.empty()) return "StartError: " + runtime_error;
  return exit.status == 0 ? "" : "exit code " + std::to_string(exit.status);
}

}  // namespace

ContainerResult run_container(const ContainerSpec& spec, const fs::path& work_dir_in, const LineSink& on_line) {
  check_can_run(spec);
  check_cgroup_controllers(spec.limits);
  const fs::path work_dir = fs::absolute(work_dir_in);
  const std::string runtime = find_runtime(spec.runtime);
  const RuntimeCli cli(runtime, state_root(work_dir, runtime));
  if (cli.exists(spec.name)) {
    throw std::runtime_error("a container named '" + spec.name + "' already exists under " + work_dir.string() +
                             " (another run of the same Job?)");
  }
  const UnpackedImage image = unpack_image(spec.layout_dir, spec.image, work_dir / "images");
  const Bundle bundle(work_dir / "bundles" / spec.name, image.rootfs);
  bundle.write_config(runtime_spec(inputs_for(spec, image, bundle.rootfs())).dump(2));
  const fs::path log = bundle.dir() / "runtime.log";

  const ContainerGuard guard(cli, spec.name);
  ContainerResult result;
  result.started_at = SystemClock::now();
  const StreamedExit exit =
      run_streaming(cli, cli.run_command(bundle.dir(), spec.name, log), spec.name, on_line, spec.stop, spec.stop_grace,
                    -1, spec.force);
  result.ended_at = SystemClock::now();
  result.exit_code = exit.status;
  result.reason = reason_for(exit, last_runtime_error(log));
  result.start = format_rfc3339_milliseconds(result.started_at);
  result.end = format_rfc3339_milliseconds(result.ended_at);
  return result;
}

bool stop_container(const std::string& name, const fs::path& work_dir, const std::string& runtime) {
  const std::string binary = find_runtime(runtime);
  const RuntimeCli cli(binary, state_root(fs::absolute(work_dir), binary));
  const bool found = cli.exists(name);
  if (found) {
    cli.kill(name, "KILL");
    cli.remove(name);
  }
  remove_bundle(fs::absolute(work_dir) / "bundles" / name);
  return found;
}

}  // namespace gkebuild::local_runner
