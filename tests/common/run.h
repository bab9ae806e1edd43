// Runs shell command lines from tests, the built gkebuild binary among them, and
// collects what they print and how they exit.
#pragma once

#include <string>
#include <string_view>

namespace gkebuild::testing {

struct CommandResult {
  int exit_code = -1;  // the exit status, or -1 when the command did not exit normally
  std::string out;     // stdout
  std::string err;     // stderr
  std::string all() const { return out + err; }
};

// Runs `command` with /bin/sh, capturing stdout and stderr separately.
CommandResult run_command(const std::string& command);

// `text` in single quotes for /bin/sh.
std::string shell_quoted(std::string_view text);

// The gkebuild binary under test (GKEBUILD_BINARY), quoted for /bin/sh.
std::string gkebuild_binary();

// Runs the gkebuild binary under test with `arguments` (shell text, quoted by the caller).
CommandResult run_gkebuild(const std::string& arguments);

}  // namespace gkebuild::testing
