#include "workloads/mnist-train/stop_signal.h"

#include <csignal>

namespace gkebuild::workloads {
namespace {

std::atomic<bool> stop{false};
volatile std::sig_atomic_t received = 0;

extern "C" void on_stop(int signal) {
  if (stop.load()) {
    std::signal(signal, SIG_DFL);
    std::raise(signal);
  }
  received = signal;
  stop.store(true);
}

}  // namespace

const std::atomic<bool>& install_stop_handler() {
  struct sigaction action {};
  action.sa_handler = on_stop;
  sigemptyset(&action.sa_mask);
  sigaction(SIGTERM, &action, nullptr);
  sigaction(SIGINT, &action, nullptr);
  return stop;
}

int stop_signal() { return received; }

}  // namespace gkebuild::workloads
