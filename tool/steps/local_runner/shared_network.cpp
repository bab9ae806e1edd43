#include "tool/steps/local_runner/shared_network.h"

#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <sys/prctl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

#include "base/error.h"

namespace gkebuild::local_runner {
namespace {

// In the child, after unshare: the loopback interface up (a new namespace has it down).
bool loopback_up() {
  const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
  if (fd < 0) return false;
  ifreq request{};
  std::strncpy(request.ifr_name, "lo", IFNAMSIZ - 1);
  bool ok = ::ioctl(fd, SIOCGIFFLAGS, &request) == 0;
  request.ifr_flags = static_cast<short>(request.ifr_flags | IFF_UP | IFF_RUNNING);
  ok = ok && ::ioctl(fd, SIOCSIFFLAGS, &request) == 0;
  ::close(fd);
  return ok;
}

}  // namespace

SharedNetwork::SharedNetwork() {
  int ready[2];
  // Close-on-exec: a runtime another thread starts meanwhile (points side by side) must not hold it.
  if (::pipe2(ready, O_CLOEXEC) != 0) throw Error(ErrorKind::kFailed, std::string("a pipe for the network namespace: ") + std::strerror(errno));
  const pid_t parent = ::getpid();
  holder_ = ::fork();
  if (holder_ < 0) {
    ::close(ready[0]);
    ::close(ready[1]);
    throw Error(ErrorKind::kFailed, std::string("fork for the network namespace: ") + std::strerror(errno));
  }
  if (holder_ == 0) {  // the holder: only async-signal-safe calls from here on
    ::close(ready[0]);
    // It dies with the thread that made it, even when gkebuild is killed with SIGKILL and no
    // destructor runs; a parent already gone before this call is caught by getppid.
    if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::getppid() != parent) ::_exit(1);
    const char status = ::unshare(CLONE_NEWNET) == 0 && loopback_up() ? 'y' : 'n';
    if (::write(ready[1], &status, 1) != 1) ::_exit(1);
    ::close(ready[1]);
    for (;;) ::pause();  // until the destructor's SIGKILL
  }
  ::close(ready[1]);
  char status = 'n';
  const bool told = ::read(ready[0], &status, 1) == 1;
  ::close(ready[0]);
  if (!told || status != 'y') {
    ::kill(holder_, SIGKILL);
    ::waitpid(holder_, nullptr, 0);
    throw Error(ErrorKind::kCannotRun, "could not make a network namespace for the Job's containers (this needs root)");
  }
}

SharedNetwork::~SharedNetwork() {
  ::kill(holder_, SIGKILL);
  ::waitpid(holder_, nullptr, 0);
}

std::filesystem::path SharedNetwork::path() const { return "/proc/" + std::to_string(holder_) + "/ns/net"; }

}  // namespace gkebuild::local_runner
