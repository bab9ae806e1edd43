#include "tool/submit/interrupt.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <csignal>

namespace gkebuild::submit {
namespace {

std::atomic<bool> interrupted{false};
std::atomic<bool> forced{false};
std::atomic<bool> second_forces{false};

extern "C" void on_interrupt(int signal) {
  const bool end_now = interrupted.load() && (!second_forces.load() || forced.load());
  if (end_now) {
    std::signal(signal, SIG_DFL);
    std::raise(signal);
  }
  if (interrupted.load()) forced.store(true);
  interrupted.store(true);
}

}  // namespace

const std::atomic<bool>& install_interrupt_handler() {
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGINT, SIGTERM}) sigaction(signal, &action, nullptr);
  return interrupted;
}

const std::atomic<bool>& forced_interrupt() { return forced; }

void let_second_interrupt_force() { second_forces.store(true); }

int terminal_rows() {
  winsize size{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_row > 0) return size.ws_row;
  return 24;
}

}  // namespace gkebuild::submit
