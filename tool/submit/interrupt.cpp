#include "submit/interrupt.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <csignal>

namespace gkebuild::submit {
namespace {

std::atomic<bool> interrupted{false};

extern "C" void on_interrupt(int) {
  if (interrupted.load()) {
    std::signal(SIGINT, SIG_DFL);
    std::raise(SIGINT);
  }
  interrupted.store(true);
}

}  // namespace

const std::atomic<bool>& install_interrupt_handler() {
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  return interrupted;
}

int terminal_rows() {
  winsize size{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_row > 0) return size.ws_row;
  return 24;
}

}  // namespace gkebuild::submit
