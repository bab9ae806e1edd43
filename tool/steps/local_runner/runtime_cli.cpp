#include "tool/steps/local_runner/runtime_cli.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "base/error.h"
#include "base/untrusted_text.h"

extern char** environ;

namespace gkebuild::local_runner {
namespace fs = std::filesystem;
namespace {

std::string on_path(const std::string& name) {
  if (name.find('/') != std::string::npos) return ::access(name.c_str(), X_OK) == 0 ? name : "";
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const fs::path candidate = fs::path(dir.empty() ? "." : dir) / name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return "";
}

class FileActions {
 public:
  FileActions() { posix_spawn_file_actions_init(&actions_); }
  ~FileActions() { posix_spawn_file_actions_destroy(&actions_); }
  FileActions(const FileActions&) = delete;
  FileActions& operator=(const FileActions&) = delete;
  void to(int fd, int target) {
    if (fd >= 0) {
      posix_spawn_file_actions_adddup2(&actions_, fd, target);
    } else {
      posix_spawn_file_actions_addopen(&actions_, target, "/dev/null", O_WRONLY, 0);
    }
  }
  posix_spawn_file_actions_t* get() { return &actions_; }

 private:
  posix_spawn_file_actions_t actions_;
};

}  // namespace

std::string find_runtime(const std::string& requested) {
  if (!requested.empty()) {
    std::string found = on_path(requested);
    if (found.empty()) throw Error(ErrorKind::kCannotRun, "the container runtime '" + requested + "' is not on PATH");
    return found;
  }
  for (const char* name : {"runc", "crun"}) {
    std::string found = on_path(name);
    if (!found.empty()) return found;
  }
  throw Error(ErrorKind::kCannotRun, 
      "running locally needs runc or crun, and neither is on PATH (install one: apt-get install runc)");
}

std::vector<std::string> RuntimeCli::run_command(const fs::path& bundle, const std::string& name,
                                                 const fs::path& log) const {
  return {binary_, "--root", state_root_.string(), "--log", log.string(), "--log-format", "json",
          "run",   "--bundle", bundle.string(), name};
}

bool RuntimeCli::kill(const std::string& name, const std::string& signal) const {
  return quiet({"kill", name, signal}) == 0;
}

bool RuntimeCli::remove(const std::string& name) const { return quiet({"delete", "--force", name}) == 0; }

bool RuntimeCli::exists(const std::string& name) const { return quiet({"state", name}) == 0; }

int RuntimeCli::quiet(std::vector<std::string> args) const {
  args.insert(args.begin(), {binary_, "--root", state_root_.string()});
  return wait_for(spawn(args, -1, -1));
}

pid_t spawn(const std::vector<std::string>& argv, int stdout_fd, int stderr_fd, int stdin_fd) {
  FileActions actions;
  if (stdin_fd >= 0) {
    posix_spawn_file_actions_adddup2(actions.get(), stdin_fd, STDIN_FILENO);
  } else {
    posix_spawn_file_actions_addopen(actions.get(), STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  }
  actions.to(stdout_fd, STDOUT_FILENO);
  actions.to(stderr_fd, STDERR_FILENO);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  std::vector<char*> raw;
  for (const auto& a : argv) raw.push_back(const_cast<char*>(a.c_str()));
  raw.push_back(nullptr);
  pid_t pid = -1;
  const int error = posix_spawnp(&pid, raw[0], actions.get(), &attributes, raw.data(), environ);
  posix_spawnattr_destroy(&attributes);
  if (error != 0) throw Error(ErrorKind::kFailed, "cannot start " + argv[0] + ": " + std::strerror(error));
  return pid;
}

std::string last_runtime_error(const fs::path& log) {
  std::ifstream in(log);
  std::string line, last;
  while (std::getline(in, line)) {
    const auto entry = nlohmann::json::parse(line, nullptr, false);
    if (entry.is_object() && entry.value("level", "") == "error") last = entry.value("msg", "");
  }
  return untrusted_text(last);  // runc's words go into a message
}

int wait_for(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

}  // namespace gkebuild::local_runner
