#include "tool/steps/run_step/run_step.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <deque>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "base/atomic_file.h"
#include "base/error.h"
#include "base/private_dirs.h"
#include "base/secret_mask.h"
#include "images/oci/digest.h"
#include "tool/steps/local_runner/bundle.h"
#include "tool/steps/local_runner/container_process.h"
#include "tool/steps/local_runner/container_user.h"
#include "tool/steps/local_runner/runtime_cli.h"
#include "tool/steps/local_runner/runtime_spec.h"
#include "tool/steps/local_runner/layer_folders.h"
#include "tool/steps/run_step/upper_changes.h"

namespace gkebuild::run_step {
namespace fs = std::filesystem;
using nlohmann::json;
namespace {

// Without these the overlay could record a renamed directory or a chmod as a reference to the
// lower folder (redirect_dir, metacopy) instead of a full copy in the upper folder.
constexpr const char* kOverlayOptions = "redirect_dir=off,metacopy=off,index=off";

// Docker's and buildah's default capabilities for a build container: package installs chown,
// switch users and make device nodes.
const std::vector<std::string> kCapabilities = {
    "CAP_CHOWN",  "CAP_DAC_OVERRIDE", "CAP_FOWNER", "CAP_FSETID",       "CAP_KILL",        "CAP_MKNOD",
    "CAP_NET_RAW", "CAP_SETGID",      "CAP_SETUID", "CAP_SETFCAP",      "CAP_SETPCAP",     "CAP_NET_BIND_SERVICE",
    "CAP_SYS_CHROOT", "CAP_AUDIT_WRITE"};

constexpr const char* kDefaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

[[noreturn]] void cannot_run(const std::string& why) { throw Error(ErrorKind::kFailed, "RUN cannot run: " + why); }

std::string find_runtime_or_fail() {
  if (::geteuid() != 0) {
    cannot_run("it needs root (runc mounts the image's layers with overlayfs and starts a rootful container); "
               "run gkebuild as root or with sudo");
  }
  try {
    return local_runner::find_runtime("");
  } catch (const std::runtime_error&) {
    cannot_run("it needs runc or crun, and neither is on PATH (apt-get install runc)");
  }
}

constexpr std::string_view kNamePrefix = "gkebuild-run-";

// A container name no other RUN of this or another gkebuild uses at the same time.
std::string container_name() {
  static std::atomic<unsigned> runs = 0;
  return std::string(kNamePrefix) + std::to_string(::getpid()) + "-" + std::to_string(++runs);
}

// The RUNs of gkebuild processes that were killed before they cleaned up: their containers and
// overlay mounts are removed, so that the folders they hold do not stay forever.
// Only gkebuild's own folder is read (RunStepDirs): nothing a checkout holds names a container here.
void remove_abandoned_runs(const fs::path& runs, const local_runner::RuntimeCli& cli) {
  std::error_code ec;
  for (const auto& run : fs::directory_iterator(runs, ec)) {
    const std::string name = run.path().filename().string();
    if (!name.starts_with(kNamePrefix)) continue;
    const long pid = std::strtol(name.c_str() + kNamePrefix.size(), nullptr, 10);
    if (pid <= 0 || ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
    cli.remove(name);
    local_runner::remove_bundle(run.path());
  }
}

bool has_variable(const std::vector<std::string>& env, const std::string& name) {
  for (const auto& e : env)
    if (e.starts_with(name + "=")) return true;
  return false;
}

// The folder of a cache mount: keyed by its id, or by its target.
fs::path cache_mount_folder(const build::RunRequest::CacheMount& mount, const fs::path& cache_mounts) {
  oci::Sha256 key;
  key.update(mount.id.empty() ? "target:" + mount.target : "id:" + mount.id);
  return cache_mounts / key.finish().hex.substr(0, 32);
}

// Every mount point of the container, relative: the runtime creates those that do not exist.
std::vector<std::string> mount_points(const json& spec) {
  std::vector<std::string> out;
  for (const auto& m : spec["mounts"]) out.push_back(m["destination"].get<std::string>().substr(1));
  return out;
}

// The mount points (and the folders above them) missing from the root file system before the
// container starts: what the runtime will create, and the layer must not hold.
RuntimeMade missing_before(const fs::path& rootfs, const std::vector<std::string>& points) {
  RuntimeMade made;
  for (const auto& point : points) {
    std::string parent;  // "": the root
    bool missing = false;
    for (const auto& part : fs::path(point)) {
      const std::string path = parent.empty() ? part.string() : parent + "/" + part.string();
      struct stat st {};
      if (!missing && ::lstat((rootfs / path).c_str(), &st) != 0) {
        missing = true;
        struct stat above {};
        if (::lstat((rootfs / parent).c_str(), &above) == 0) {
          made.parents[parent] = DirectoryState{above.st_mode & 07777, above.st_uid, above.st_gid};
        }
      }
      if (missing) made.paths.insert(path);
      parent = path;
    }
  }
  return made;
}

// Each secret file of the RUN (RUN --mount=type=secret,target=…): written, with the mount's
// mode and owner, into secrets/ of the bundle (owner-only, removed when the container has
// ended), and bound read-only at its target; each env= secret is a variable of this RUN only.
void add_secret_mounts(const build::RunRequest& request, const local_runner::Bundle& bundle, json& spec) {
  const fs::path folder = bundle.dir() / "secrets";
  for (std::size_t i = 0; i < request.secret_mounts.size(); ++i) {
    const auto& mount = request.secret_mounts[i];
    if (!mount.env.empty()) spec["process"]["env"].push_back(mount.env + "=" + mount.value);
    if (mount.target.empty()) continue;
    fs::create_directories(folder);
    fs::permissions(folder, fs::perms::owner_all, fs::perm_options::replace);
    const fs::path file = folder / std::to_string(i);
    write_file_atomically(file, mount.value, FileAccess::kOwnerOnly);
    if (::chown(file.c_str(), mount.uid, mount.gid) != 0 || ::chmod(file.c_str(), mount.mode) != 0)
      cannot_run("cannot set the owner and mode of secret " + mount.id + "'s file");
    spec["mounts"].push_back(json{{"destination", mount.target}, {"type", "bind"}, {"source", file.string()},
                                  {"options", {"rbind", "ro", "nosuid", "nodev", "noexec"}}});
  }
}

// As many open files as this process may have (buildah's choice; runc's default is 1024, too few
// for some package builds).
json open_files_limit() {
  struct rlimit limit {};
  ::getrlimit(RLIMIT_NOFILE, &limit);
  const auto most = static_cast<uint64_t>(limit.rlim_max);
  return {{"type", "RLIMIT_NOFILE"}, {"hard", most}, {"soft", most}};
}

json container_spec(const build::RunRequest& request, const local_runner::Bundle& bundle, const std::string& name,
                    const fs::path& cache_mounts) {
  local_runner::RuntimeInputs in;
  in.process.args = request.argv;
  in.process.env = request.env;
  in.process.cwd = request.working_dir.empty() ? "/" : request.working_dir;
  try {
    in.process.user = local_runner::resolve_user(request.user, bundle.rootfs());
  } catch (const std::runtime_error& e) {
    throw Error(ErrorKind::kFailed, std::string("RUN: ") + e.what());
  }
  // As buildah: the primary group is in the process's group list too (`id` shows it in groups=).
  auto& groups = in.process.user.additional_gids;
  if (std::find(groups.begin(), groups.end(), in.process.user.gid) == groups.end()) groups.push_back(in.process.user.gid);
  if (!has_variable(in.process.env, "PATH")) in.process.env.push_back(std::string("PATH=") + kDefaultPath);
  if (!has_variable(in.process.env, "HOME")) in.process.env.push_back("HOME=" + in.process.user.home);
  in.rootfs = bundle.rootfs();
  in.hostname = name.substr(0, 63);
  in.host_network = true;
  json spec = local_runner::runtime_spec(in);
  // The host's name resolution, as copies the RUN may change (`echo … >> /etc/hosts`) without
  // touching the host's files; like every mount point, they are not part of the layer.
  for (const fs::path& file : local_runner::existing_host_network_files()) {
    const fs::path copy = bundle.dir() / ("host-" + file.filename().string());
    fs::copy_file(file, copy, fs::copy_options::overwrite_existing);
    spec["mounts"].push_back(json{{"destination", file.string()}, {"type", "bind"}, {"source", copy.string()},
                                  {"options", {"rbind", "rw"}}});
  }
  spec["process"]["capabilities"] = {{"bounding", kCapabilities}, {"effective", kCapabilities},
                                     {"permitted", kCapabilities}};
  spec["process"]["noNewPrivileges"] = false;  // sudo and setuid helpers work in a build, as in Docker's
  spec["process"]["rlimits"] = json::array({open_files_limit()});
  add_secret_mounts(request, bundle, spec);
  for (const auto& mount : request.cache_mounts) {
    const fs::path folder = cache_mount_folder(mount, cache_mounts);
    fs::create_directories(folder);
    // Its mtime is its last use, what `gkebuild prune --older-than` goes by.
    std::error_code ignored;
    fs::last_write_time(folder, fs::file_time_type::clock::now(), ignored);
    spec["mounts"].push_back(json{{"destination", mount.target}, {"type", "bind"}, {"source", folder.string()},
                                  {"options", {"rbind", "rw"}}});
  }
  return spec;
}

// The heredoc for the process's stdin, from a file in the bundle; -1 when there is none.
class StdinFile {
 public:
  StdinFile(const build::RunRequest& request, const fs::path& dir) {
    if (!request.stdin_data) return;
    write_file_atomically(dir / "stdin", *request.stdin_data);
    fd_ = ::open((dir / "stdin").c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) cannot_run("cannot open its stdin file " + (dir / "stdin").string());
  }
  ~StdinFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  StdinFile(const StdinFile&) = delete;
  StdinFile& operator=(const StdinFile&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_ = -1;
};

std::shared_ptr<local_runner::Bundle> mount_bundle(const fs::path& dir, const std::vector<fs::path>& lowers) {
  try {
    return std::make_shared<local_runner::Bundle>(dir, lowers, kOverlayOptions);
  } catch (const std::runtime_error& e) {
    cannot_run(std::string(e.what()) + " (RUN needs overlayfs: the kernel's overlay module, and a cache folder "
                                       "on a file system that can be an overlay's upper folder)");
  }
}

// The last lines a command wrote, for the error when it fails: the output may have gone
// nowhere (no terminal, no progress). Each is masked before it is cut to its first 1000
// characters: a cut through a secret would leave a head that no mask matches later.
class LastLines {
 public:
  explicit LastLines(const build::RunRequest& request) {
    std::vector<std::string> values;
    for (const auto& mount : request.secret_mounts) values.push_back(mount.value);
    mask_ = SecretMask(values);
  }
  void add(std::string_view line) {
    lines_.emplace_back(mask_.apply(line).substr(0, 1000));
    if (lines_.size() > kKept) lines_.pop_front();
  }
  std::string text() const {
    std::string out;
    for (const auto& line : lines_) out += "\n  " + line;
    return out;
  }

 private:
  static constexpr size_t kKept = 20;
  SecretMask mask_;
  std::deque<std::string> lines_;
};

// Runs the container to its end; deletes it on every way out.
int run_to_end(const local_runner::RuntimeCli& cli, const local_runner::Bundle& bundle, const std::string& name,
               const build::RunRequest& request, LastLines& last) {
  const StdinFile stdin_file(request, bundle.dir());
  auto on_line = [&](std::string_view line, bool) {
    last.add(line);
    if (request.output) request.output(line);
  };
  struct Remover {
    const local_runner::RuntimeCli& cli;
    const std::string& name;
    ~Remover() { cli.remove(name); }
  } remover{cli, name};
  const auto exit = local_runner::run_streaming(cli, cli.run_command(bundle.dir(), name, bundle.dir() / "runtime.log"),
                                            name, on_line, nullptr, std::chrono::seconds(10), stdin_file.fd());
  return exit.status;
}

}  // namespace

build::RunChanges run_in_container(const build::RunRequest& request, const RunStepDirs& dirs) {
  const std::string runtime = find_runtime_or_fail();
  if (request.argv.empty()) throw Error(ErrorKind::kBadInput, "RUN has no command");
  std::vector<fs::path> lowers;
  try {
    lowers = local_runner::lower_folders(request.image, dirs.layers);
  } catch (const std::runtime_error& e) {
    throw Error(ErrorKind::kFailed, std::string("RUN: cannot unpack the image: ") + e.what());
  }
  const local_runner::RuntimeCli cli(runtime, dirs.state / fs::path(runtime).filename());
  remove_abandoned_runs(dirs.runs, cli);
  const std::string name = container_name();
  auto bundle = mount_bundle(dirs.runs / name, lowers);
  const json spec = container_spec(request, *bundle, name, dirs.cache_mounts);
  const RuntimeMade runtime_made = missing_before(bundle->rootfs(), mount_points(spec));
  bundle->write_config(spec.dump(2));
  LastLines last(request);
  const int status = run_to_end(cli, *bundle, name, request, last);
  bundle->unmount();
  // The secrets go with the container; the bundle itself stays until the layer is written.
  std::error_code ignored;
  fs::remove_all(bundle->dir() / "secrets", ignored);
  if (!request.secret_mounts.empty()) fs::remove(bundle->dir() / "config.json", ignored);
  if (status != 0) {
    const std::string start_error = local_runner::last_runtime_error(bundle->dir() / "runtime.log");
    if (!start_error.empty()) throw Error(ErrorKind::kFailed, "RUN could not start its container: " + start_error);
    const std::string output = last.text();
    throw Error(ErrorKind::kFailed, "RUN exited with status " + std::to_string(status) +
                                        (output.empty() ? "" : "; the last lines it wrote:" + output));
  }
  try {
    return build::RunChanges{upper_changes(bundle->upper(), runtime_made), bundle};
  } catch (const std::runtime_error& e) {
    throw Error(ErrorKind::kFailed, std::string("RUN: ") + e.what());
  }
}

std::function<build::RunChanges(const build::RunRequest&)> run_step(fs::path scope) {
  return [scope = std::move(scope)](const build::RunRequest& request) {
    find_runtime_or_fail();  // not root or no runtime: said before any folder is made
    return run_in_container(request, run_step_dirs(scope));
  };
}

RunStepDirs run_step_dirs(const fs::path& scope) {
  const fs::path runtime = runtime_dir();
  const fs::path cache = machine_cache_dir();
  return {private_subfolder(runtime, fs::path("build") / "state"), private_subfolder(cache, fs::path("build") / "runs"),
          private_subfolder(cache, "unpacked"),
          private_subfolder(cache, fs::path("cache-mounts") / folder_key(scope))};
}

}  // namespace gkebuild::run_step
