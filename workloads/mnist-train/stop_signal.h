// SIGTERM (what the kubelet sends a preempted pod, before SIGKILL at the end of its grace
// period) and SIGINT ask the training to stop after the current step; a second one ends
// the process at once.
#pragma once

#include <atomic>

namespace gkebuild::workloads {

// Installs the handlers; returns the flag they set.
const std::atomic<bool>& install_stop_handler();
// The signal that set the flag (0: none yet).
int stop_signal();

}  // namespace gkebuild::workloads
