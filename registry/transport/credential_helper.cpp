#include "transport/credential_helper.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <nlohmann/json.hpp>

#include "transport/errors.h"

extern char** environ;

namespace gkebuild::registry {
namespace {

struct Pipe {
  int fds[2] = {-1, -1};
  Pipe() {
    if (::pipe2(fds, O_CLOEXEC) != 0) throw RegistryError(ErrorKind::kBadInput, "cannot create a pipe");
  }
  ~Pipe() {
    for (int fd : fds)
      if (fd >= 0) ::close(fd);
  }
  void close(int end) {
    if (fds[end] >= 0) ::close(fds[end]);
    fds[end] = -1;
  }
};

struct Output {
  std::string out;
  std::string err;
  int status = 0;
};

// Writes `input` to the child's stdin and reads stdout and stderr until both close.
void exchange(Pipe& in, Pipe& out, Pipe& err, const std::string& input, Output& result) {
  std::string_view pending = input;
  while (!pending.empty()) {
    ssize_t n = ::write(in.fds[1], pending.data(), pending.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // the helper stopped reading; its answer tells what happened
    pending.remove_prefix(static_cast<size_t>(n));
  }
  in.close(1);
  std::array<pollfd, 2> fds{pollfd{out.fds[0], POLLIN, 0}, pollfd{err.fds[0], POLLIN, 0}};
  std::array<std::string*, 2> sinks{&result.out, &result.err};
  int open = 2;
  while (open > 0) {
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buffer[4096];
      ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0 && sinks[i]->size() < (1 << 20)) sinks[i]->append(buffer, static_cast<size_t>(n));
      if (n == 0 || (n < 0 && errno != EINTR)) {
        fds[i].fd = -1;
        --open;
      }
    }
  }
}

Output run(const std::string& program, const std::string& input) {
  Pipe in, out, err;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in.fds[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out.fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err.fds[1], 2);
  std::string verb = "get";
  char* argv[] = {const_cast<char*>(program.c_str()), verb.data(), nullptr};
  pid_t pid = 0;
  int rc = ::posix_spawnp(&pid, program.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0)
    throw RegistryError(ErrorKind::kBadInput,
                        "credential helper " + program + " is not installed or not on PATH");
  in.close(0);
  out.close(1);
  err.close(1);
  Output result;
  exchange(in, out, err, input, result);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

// What to do about a failing helper. Its output is never repeated: a helper that fails half
// way may have printed part of a credential. docker-credential-gcloud fails so when gcloud has
// no account, so it gets the steps that fix that.
std::string helper_hint(const std::string& program) {
  if (program == "docker-credential-gcloud")
    return ": gcloud may have no active account here: run `gcloud auth login`, then try again (run `echo HOST | "
           "docker-credential-gcloud get` to see what it says)";
  return ": run `echo HOST | " + program + " get` to see what it says";
}

}  // namespace

std::optional<Credentials> run_credential_helper(const std::string& helper,
                                                 const std::string& server) {
  std::string program = "docker-credential-" + helper;
  Output result = run(program, server);
  if (result.status != 0) {
    // The documented "no credentials" answer; anything else is a failure.
    if ((result.out + result.err).find("credentials not found") != std::string::npos)
      return std::nullopt;
    throw RegistryError(ErrorKind::kBadInput, "credential helper " + program + " failed for " +
                                                  server + " (exit status " +
                                                  std::to_string(result.status) + ")" +
                                                  helper_hint(program));
  }
  auto answer = nlohmann::json::parse(result.out, nullptr, false);
  if (!answer.is_object() || !answer.contains("Secret") || !answer["Secret"].is_string())
    throw RegistryError(ErrorKind::kBadInput, "credential helper " + program +
                                                  " printed an answer without a Secret for " +
                                                  server);
  Credentials credentials;
  credentials.username = answer.value("Username", "");
  if (credentials.username == "<token>")
    credentials.identity_token = answer["Secret"].get<std::string>();
  else
    credentials.password = answer["Secret"].get<std::string>();
  return credentials;
}

}  // namespace gkebuild::registry
