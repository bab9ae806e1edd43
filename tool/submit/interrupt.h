// Ctrl-C for commands that follow a run: the first SIGINT sets a flag the follower
// polls (it stops following and says how to come back); a second one ends the process.
#pragma once

#include <atomic>

namespace gkebuild::submit {

const std::atomic<bool>& install_interrupt_handler();

// The terminal's height in lines (24 when it cannot be asked).
int terminal_rows();

}  // namespace gkebuild::submit
