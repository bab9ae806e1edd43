#include "cluster/gcloud_runner.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

#include "base/error.h"

extern char** environ;

namespace gkebuild::cluster {
namespace {

struct Pipe {
  int fds[2] = {-1, -1};
  Pipe() {
    if (::pipe2(fds, O_CLOEXEC) != 0) throw Error(ErrorKind::kFailed, "cannot make a pipe for gcloud");
  }
  ~Pipe() {
    for (int fd : fds)
      if (fd >= 0) ::close(fd);
  }
  void close(int end) {
    ::close(fds[end]);
    fds[end] = -1;
  }
};

// Reads both pipes to their ends (gcloud may fill either first).
void drain(Pipe& out, Pipe& err, GcloudResult& result) {
  pollfd fds[2] = {{out.fds[0], POLLIN, 0}, {err.fds[0], POLLIN, 0}};
  std::string* sinks[2] = {&result.out, &result.err};
  int open = 2;
  while (open > 0) {
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buffer[8192];
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) sinks[i]->append(buffer, static_cast<std::size_t>(n));
      if (n == 0 || (n < 0 && errno != EINTR)) {
        fds[i].fd = -1;
        --open;
      }
    }
  }
}

}  // namespace

GcloudResult run_gcloud(const Argv& args) {
  Pipe out, err;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out.fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err.fds[1], 2);
  std::vector<std::string> words{"gcloud"};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int failed = ::posix_spawnp(&pid, "gcloud", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (failed)
    throw Error(ErrorKind::kBadInput,
                "gcloud is not on PATH: install the Google Cloud CLI (Debian package google-cloud-cli)");
  out.close(1);
  err.close(1);
  GcloudResult result;
  drain(out, err, result);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

std::string gcloud_message(const GcloudResult& result) {
  std::string text = result.err;
  if (const auto footer = text.find("\nTo search the help text"); footer != std::string::npos) text.erase(footer);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text.empty() ? "gcloud exited with status " + std::to_string(result.exit_code) : text;
}

}  // namespace gkebuild::cluster
