// A pod's log, followed line by line. Every request asks for timestamps, so a
// stream that drops resumes with sinceTime and skips what was already delivered:
// each line reaches the caller exactly once. A followed log is a state machine on the
// client's event loop (no thread of its own).
#pragma once

#include <atomic>
#include <exception>
#include <functional>
#include <string>
#include <string_view>

#include "tool/core/kube/client.h"

namespace gkebuild::kube {

struct LogOptions {
  std::string container;  // empty: the pod's only container
  bool follow = true;
  int max_failures = 5;  // drops in a row without a new line before giving up
  const std::atomic<bool>* cancel = nullptr;  // turning true ends the stream within about a second
};

struct LogStats {
  int requests = 0;
  int drops = 0;
};

// Calls `on_line` with each line (without its timestamp or line ending) until the
// log ends (with follow: the container exited) or `on_line` returns false.
// A refusal, such as 400 while the container is still waiting to start, throws ApiError.
LogStats follow_logs(Client& client, const std::string& namespace_name, const std::string& pod,
                     const LogOptions& options, const std::function<bool(std::string_view line)>& on_line);

// The same on the client's event loop: `on_line` and then `done` (once, with the stats or
// what follow_logs() would throw) run on the loop's thread and must not block.
using LogCompletion = std::function<void(LogStats stats, std::exception_ptr error)>;
void start_follow_logs(Client& client, const std::string& namespace_name, const std::string& pod,
                       const LogOptions& options, std::function<bool(std::string_view line)> on_line,
                       LogCompletion done);

}  // namespace gkebuild::kube
