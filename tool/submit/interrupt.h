// Ctrl-C (SIGINT) and SIGTERM for commands that follow a run: the first sets a flag the
// follower polls (it stops following and says how to come back; a local run stops its
// containers); a second one ends the process, or, once a local run has asked for it, sets a
// second flag that makes the local runner kill its containers at once (and still clean up).
#pragma once

#include <atomic>

namespace gkebuild::submit {

const std::atomic<bool>& install_interrupt_handler();

// Set by the second signal after let_second_interrupt_force(); a third one ends the process.
const std::atomic<bool>& forced_interrupt();
// From now on the second signal sets forced_interrupt() instead of ending the process: the
// local runner still has containers, mounts and a record to clean up.
void let_second_interrupt_force();

// The terminal's height in lines (24 when it cannot be asked).
int terminal_rows();

}  // namespace gkebuild::submit
