#include "tool/steps/local_runner/container_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "base/error.h"
#include "tool/steps/local_runner/line_splitter.h"

namespace gkebuild::local_runner {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kPollMilliseconds = 100;

struct Pipe {
  int read = -1;
  int write = -1;
  Pipe() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw Error(ErrorKind::kFailed, std::string("cannot create a pipe: ") + std::strerror(errno));
    read = fds[0];
    write = fds[1];
  }
  ~Pipe() {
    close_read();
    close_write();
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  void close_read() {
    if (read >= 0) ::close(read);
    read = -1;
  }
  void close_write() {
    if (write >= 0) ::close(write);
    write = -1;
  }
};

// Escalates a stop request: SIGTERM at once (repeated until the container exists),
// SIGKILL after the grace period (at once when forced), and the runtime process itself after
// twice that.
class Stopper {
 public:
  Stopper(const RuntimeCli& cli, const std::string& name, pid_t runtime, std::chrono::seconds grace)
      : cli_(cli), name_(name), runtime_(runtime), grace_(grace) {}

  bool requested() const { return requested_; }

  void tick(bool stop_now, bool force_now) {
    if (!requested_ && !stop_now && !force_now) return;
    const auto now = Clock::now();
    if (!requested_) {
      requested_ = true;
      since_ = now;
    }
    if (!signalled_) signalled_ = cli_.kill(name_, "TERM");
    if ((force_now || now - since_ >= grace_) && !killed_) killed_ = cli_.kill(name_, "KILL");
    if (now - since_ >= 2 * grace_) ::kill(-runtime_, SIGKILL);
  }

 private:
  const RuntimeCli& cli_;
  const std::string& name_;
  pid_t runtime_;
  std::chrono::seconds grace_;
  bool requested_ = false, signalled_ = false, killed_ = false;
  Clock::time_point since_;
};

class Streamer {
 public:
  Streamer(Pipe& out, Pipe& err, const std::function<void(std::string_view, bool)>& on_line)
      : pipes_{&out, &err}, on_line_(on_line) {}

  bool open() const { return pipes_[0]->read >= 0 || pipes_[1]->read >= 0; }

  void poll_once() {
    std::array<pollfd, 2> fds{};
    for (int i = 0; i < 2; ++i) fds[i] = pollfd{pipes_[i]->read, POLLIN, 0};
    if (::poll(fds.data(), fds.size(), kPollMilliseconds) <= 0) return;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].revents != 0) drain(i);
    }
  }

 private:
  void drain(int i) {
    std::array<char, 1 << 16> buffer;
    const ssize_t n = ::read(pipes_[i]->read, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) return;
    auto emit = [this, i](std::string_view line) { on_line_(line, i == 1); };
    if (n > 0) {
      splitters_[i].feed(std::string_view(buffer.data(), static_cast<size_t>(n)), emit);
      return;
    }
    splitters_[i].finish(emit);
    pipes_[i]->close_read();
  }

  std::array<Pipe*, 2> pipes_;
  std::array<LineSplitter, 2> splitters_;
  const std::function<void(std::string_view, bool)>& on_line_;
};

}  // namespace

StreamedExit run_streaming(const RuntimeCli& cli, const std::vector<std::string>& argv, const std::string& name,
                           const std::function<void(std::string_view, bool)>& on_line,
                           const std::atomic<bool>* stop, std::chrono::seconds grace, int stdin_fd,
                           const std::atomic<bool>* force) {
  Pipe out, err;
  const pid_t pid = spawn(argv, out.write, err.write, stdin_fd);
  out.close_write();
  err.close_write();
  Stopper stopper(cli, name, pid, grace);
  Streamer streamer(out, err, on_line);
  try {
    while (streamer.open()) {
      streamer.poll_once();
      stopper.tick(stop != nullptr && stop->load(), force != nullptr && force->load());
    }
  } catch (...) {
    cli.kill(name, "KILL");
    ::kill(-pid, SIGKILL);
    wait_for(pid);
    throw;
  }
  return StreamedExit{wait_for(pid), stopper.requested()};
}

}  // namespace gkebuild::local_runner
