// The OCI runtime's command line (runc, or crun, which takes the same commands): where its
// binary is, where it keeps container state, and the short commands that manage a container.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace gkebuild::local_runner {

// The runtime binary: `requested` ("runc", "crun", a path) or, when empty, runc and then crun
// from PATH. Throws std::runtime_error saying what to install.
std::string find_runtime(const std::string& requested);

class RuntimeCli {
 public:
  // `state_root` is the runtime's --root: containers started here are only visible there.
  RuntimeCli(std::string binary, std::filesystem::path state_root)
      : binary_(std::move(binary)), state_root_(std::move(state_root)) {}

  const std::string& binary() const { return binary_; }
  // argv of `runtime --root R --log LOG --log-format json run --bundle B NAME`.
  std::vector<std::string> run_command(const std::filesystem::path& bundle, const std::string& name,
                                       const std::filesystem::path& log) const;
  // `runtime kill NAME SIGNAL`; false when it failed (no such container yet or any more).
  bool kill(const std::string& name, const std::string& signal) const;
  // `runtime delete --force NAME`; false when there was nothing to delete.
  bool remove(const std::string& name) const;
  // `runtime state NAME` succeeds: the container exists (running or not).
  bool exists(const std::string& name) const;

 private:
  int quiet(std::vector<std::string> args) const;
  std::string binary_;
  std::filesystem::path state_root_;
};

// Starts argv[0] (searched on PATH) with stdin, stdout and stderr on the given descriptors
// (-1: /dev/null), in a process group of its own so a Ctrl-C at the terminal reaches
// gkebuild only. Throws std::runtime_error when it cannot start.
pid_t spawn(const std::vector<std::string>& argv, int stdout_fd, int stderr_fd, int stdin_fd = -1);

// The last error the runtime logged with --log-format json (why a container did not start);
// "" when there is none.
std::string last_runtime_error(const std::filesystem::path& log);

// Waits for `pid` and returns its exit status, 128+N when signal N ended it.
int wait_for(pid_t pid);

}  // namespace gkebuild::local_runner
