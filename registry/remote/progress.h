// A push progress display for terminals: one line per blob in flight and a
// total with rate and time left, redrawn in place on stderr. Commands create
// it only when stderr is a terminal and --quiet is off.
#pragma once

#include <chrono>
#include <map>
#include <mutex>
#include <ostream>
#include <string>

#include "registry/remote/push.h"

namespace gkebuild::registry {

class ProgressDisplay {
 public:
  explicit ProgressDisplay(std::ostream& out) : out_(out) {}
  // Thread-safe; redraws at most ten times a second.
  void update(const BlobProgress& progress);
  // Draws the final state and leaves the cursor below it.
  void finish();

 private:
  struct Blob {
    int64_t size = 0;
    uint64_t sent = 0;
    bool done = false;
  };
  void draw();

  std::ostream& out_;
  std::mutex mutex_;
  std::map<std::string, Blob> blobs_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_draw_{};
  int lines_drawn_ = 0;
};

// "12.3 MiB" and the like.
std::string human_bytes(double bytes);

}  // namespace gkebuild::registry
