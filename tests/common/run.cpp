#include "tests/common/run.h"

#include <sys/wait.h>

#include <cstdlib>

#include "base/atomic_file.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::testing {

CommandResult run_command(const std::string& command) {
  // Files rather than pipes: reading two pipes in turn can deadlock when the command
  // fills the one not being read.
  TempDir capture;
  const auto out = capture / "stdout";
  const auto err = capture / "stderr";
  const std::string line = "( " + command + " ) >" + shell_quoted(out.string()) + " 2>" + shell_quoted(err.string());
  const int status = std::system(line.c_str());
  CommandResult result;
  result.exit_code = status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = read_file(out);
  result.err = read_file(err);
  return result;
}

std::string shell_quoted(std::string_view text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string gkebuild_binary() { return shell_quoted(GKEBUILD_BINARY); }

CommandResult run_gkebuild(const std::string& arguments) { return run_command(gkebuild_binary() + " " + arguments); }

}  // namespace gkebuild::testing
