// Where submit and the follow-up commands (status, logs, delete) write, and how they hear
// of Ctrl-C: one part of their options, filled once by the CLI for this process.
#pragma once

#include <atomic>
#include <ostream>

namespace gkebuild::submit {

struct Console {
  std::ostream* out = nullptr;  // data: dry-run YAML, log lines, status, tables
  std::ostream* err = nullptr;  // notes and the status view
  bool terminal = false;        // `err` is a terminal: redraw the status in place
  int terminal_rows = 24;
  const std::atomic<bool>* interrupted = nullptr;  // set by the Ctrl-C handler
};

}  // namespace gkebuild::submit
