// The console of this process, as submit and the follow-up commands take it: stdout and
// stderr, whether stderr is a terminal (and how tall), and the Ctrl-C handler's flag.
#pragma once

#include <unistd.h>

#include <iostream>

#include "tool/submit/console.h"
#include "tool/submit/interrupt.h"

namespace gkebuild::cli {

// Installs the Ctrl-C handler: call it when the command is about to run.
inline submit::Console process_console() {
  submit::Console console;
  console.out = &std::cout;
  console.err = &std::cerr;
  console.terminal = ::isatty(STDERR_FILENO) != 0;
  console.terminal_rows = submit::terminal_rows();
  console.interrupted = &submit::install_interrupt_handler();
  return console;
}

}  // namespace gkebuild::cli
