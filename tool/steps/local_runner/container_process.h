// Runs `runtime run` in the foreground and streams the container's stdout and stderr line
// by line, stopping the container when asked: SIGTERM, then SIGKILL after the grace period.
// The runtime's (and so the process's) stdin is `stdin_fd`, or /dev/null when it is -1.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "tool/steps/local_runner/runtime_cli.h"

namespace gkebuild::local_runner {

struct StreamedExit {
  int status = -1;       // the runtime's exit status: the container's, or its own failure
  bool stopped = false;  // ended because `stop` became true
};

// Delivers every line on this thread. When `on_line` throws, the container is killed and the
// runtime process reaped before the exception goes on. `force` set (a second Ctrl-C) skips
// the rest of the grace period: SIGKILL at once.
StreamedExit run_streaming(const RuntimeCli& cli, const std::vector<std::string>& argv, const std::string& name,
                           const std::function<void(std::string_view, bool)>& on_line,
                           const std::atomic<bool>* stop, std::chrono::seconds grace, int stdin_fd = -1,
                           const std::atomic<bool>* force = nullptr);

}  // namespace gkebuild::local_runner
