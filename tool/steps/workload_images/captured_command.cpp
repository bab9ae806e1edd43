#include "tool/steps/workload_images/captured_command.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/error.h"
#include "base/untrusted_text.h"

extern char** environ;

namespace gkebuild::workload_images {
namespace {

std::vector<std::string> merged_environment(const std::map<std::string, std::string>& overrides) {
  std::vector<std::string> out;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string text = *entry;
    if (!overrides.count(text.substr(0, text.find('=')))) out.push_back(text);
  }
  for (const auto& [name, value] : overrides) out.push_back(name + "=" + value);
  return out;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

}  // namespace

CommandOutput run_captured(const std::vector<std::string>& argv,
                           const std::map<std::string, std::string>& environment) {
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) throw Error(ErrorKind::kFailed, std::string("pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);
  std::vector<std::string> args = argv;
  std::vector<std::string> env = merged_environment(environment);
  pid_t pid = -1;
  const int error = posix_spawnp(&pid, args[0].c_str(), &actions, nullptr, pointers(args).data(), pointers(env).data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[1]);
  if (error != 0) {
    ::close(pipe_fds[0]);
    throw Error(ErrorKind::kBadInput, "cannot start " + argv[0] + ": " + std::strerror(error));
  }
  CommandOutput result;
  char buffer[65536];
  for (ssize_t n; (n = ::read(pipe_fds[0], buffer, sizeof buffer)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    result.output.append(buffer, static_cast<size_t>(n));
  }
  ::close(pipe_fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

std::string last_lines(const std::string& text, int lines) {
  size_t start = text.size();
  if (start > 0 && text[start - 1] == '\n') --start;
  for (int seen = 0; start > 0; --start)
    if (text[start - 1] == '\n' && ++seen == lines) break;
  return untrusted_text(std::string_view(text).substr(start));  // for messages: escaped, no credentials
}

}  // namespace gkebuild::workload_images
