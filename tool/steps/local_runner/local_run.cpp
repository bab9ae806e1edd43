#include "tool/steps/local_runner/local_run.h"

#include <unistd.h>

#include <cctype>
#include <ctime>
#include <stdexcept>

#include "base/dns_name.h"
#include "base/error.h"
#include "base/printable.h"
#include "base/private_dirs.h"
#include "base/rfc3339.h"
#include "tool/steps/local_runner/bundle.h"
#include "tool/steps/local_runner/cgroup_controllers.h"
#include "tool/steps/local_runner/container_process.h"
#include "tool/steps/local_runner/gpu_slots.h"
#include "tool/steps/local_runner/image_cache.h"
#include "tool/steps/local_runner/process_spec.h"
#include "tool/steps/local_runner/runtime_cli.h"
#include "tool/steps/local_runner/runtime_spec.h"

namespace gkebuild::local_runner {
namespace fs = std::filesystem;
namespace {


void check_can_run(const ContainerSpec& spec) {
  if (::geteuid() != 0) {
    throw Error(ErrorKind::kCannotRun, "running locally needs root: runc and crun run rootful containers here "
                "(run gkebuild as root or with sudo)");
  }
  bool valid = !spec.name.empty() && spec.name.size() <= 200;
  for (char c : spec.name) valid = valid && (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.');
  if (!valid || spec.name.front() == '.') {
    throw Error(ErrorKind::kBadInput, "'" + spec.name + "' is not a valid container name (letters, digits, '-', '_', '.')");
  }
}

// The runtime's state folder: one per runtime binary, so runc and crun never share one.
fs::path state_root(const LocalDirs& dirs, const std::string& runtime) {
  return dirs.state / fs::path(runtime).filename();
}

RuntimeInputs inputs_for(const ContainerSpec& spec, const UnpackedImage& image, const fs::path& rootfs) {
  RuntimeInputs in;
  const auto& config = image.config.config;
  in.process.args = process_args(config, spec.command, spec.args, spec.env);
  in.process.env = process_env(config, spec.env, spec.name);
  in.process.cwd = !spec.working_dir.empty() ? spec.working_dir : config.working_dir.empty() ? "/" : config.working_dir;
  in.process.user = resolve_user(config.user, rootfs);  // the overlay of its layers, mounted
  in.rootfs = rootfs;
  in.hostname = (spec.hostname.empty() ? spec.name : spec.hostname).substr(0, 63);
  in.host_network = spec.host_network;
  in.network_namespace = spec.network_namespace;
  in.hosts_file = spec.hosts_file;
  if (spec.host_network) in.host_network_files = existing_host_network_files();
  in.limits = spec.limits;
  if (spec.gpus && spec.gpu_indexes.empty()) in.gpu = find_host_gpu();
  if (spec.gpus && !spec.gpu_indexes.empty()) give_gpus(in, find_host_gpu(), spec.gpu_indexes);
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

ContainerResult run_container(const ContainerSpec& spec, const LocalDirs& dirs, const LineSink& on_line) {
  check_can_run(spec);
  check_cgroup_controllers(spec.limits);
  const std::string runtime = find_runtime(spec.runtime);
  const RuntimeCli cli(runtime, state_root(dirs, runtime));
  if (cli.exists(spec.name)) {
    throw Error(ErrorKind::kFailed, "a container named '" + spec.name + "' already exists under " + dirs.state.string() +
                " (another run of the same Job?)");
  }
  const UnpackedImage image = unpack_image(spec.layout_dir, spec.image, dirs.images);
  const Bundle bundle(dirs.bundles / spec.name, image.lowers, "");
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

bool stop_container(const std::string& name, const LocalDirs& dirs, const std::string& runtime) {
  if (!is_record_name(name)) return false;  // no container of ours has such a name
  const std::string binary = find_runtime(runtime);
  const RuntimeCli cli(binary, state_root(dirs, binary));
  const bool found = cli.exists(name);
  if (found) {
    cli.kill(name, "KILL");
    cli.remove(name);
  }
  remove_bundle(dirs.bundles / name);
  return found;
}

void stop_all_containers(const LocalDirs& dirs) {
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(dirs.bundles, error)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_symlink(error) && entry.is_directory(error)) stop_container(name, dirs);
  }
}

bool is_record_name(const std::string& name) { return is_dns_subdomain(name); }

LocalDirs local_run_dirs(const fs::path& project_dir, const std::string& run) {
  if (!is_record_name(run))
    throw Error(ErrorKind::kBadInput, "run " + printable(run) + " is not a name gkebuild writes for a run");
  const std::string key = folder_key(project_dir) + "-" + run;
  const fs::path runtime = runtime_dir();
  const fs::path cache = machine_cache_dir();
  return {private_subfolder(runtime, fs::path("runs") / key), private_subfolder(cache, fs::path("containers") / key),
          private_subfolder(cache, "unpacked")};
}

void remove_local_run_dirs(const LocalDirs& dirs) {
  std::error_code ignored;
  fs::remove_all(dirs.state, ignored);
  fs::remove_all(dirs.bundles, ignored);
}

}  // namespace gkebuild::local_runner
