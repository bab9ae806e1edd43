// Running a build tool (cmake) with its output captured, so that a success stays quiet and
// a failure can be shown in the error.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace gkebuild::workload_images {

struct CommandOutput {
  int exit_code = -1;  // 128 + signal when killed
  std::string output;  // stdout and stderr together, in order
};

// Runs argv[0] (looked up on PATH) with `environment` set on top of this process's;
// stdin is /dev/null. Throws Error(kBadInput) when the program cannot be started.
CommandOutput run_captured(const std::vector<std::string>& argv,
                           const std::map<std::string, std::string>& environment = {});

// The last `lines` lines of `text`, for an error message.
std::string last_lines(const std::string& text, int lines);  // escaped, URLs without credentials

}  // namespace gkebuild::workload_images
