// How many threads a list of independent renders is worth.
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>

namespace gkebuild::render {

// Threads pay off only for sweeps; a handful of objects renders faster on one. `most`: the
// user's limit (render --jobs), 0 for none.
inline int parallel_jobs(size_t items, int most = 0) {
  constexpr size_t kItemsPerThread = 16;
  const size_t cores = std::max(1u, std::thread::hardware_concurrency());
  const size_t limit = most > 0 ? static_cast<size_t>(most) : std::min<size_t>(cores, 8);
  return static_cast<int>(std::clamp<size_t>(items / kItemsPerThread, 1, limit));
}

// Threads for the long loops of one template (jinja::Options::loop_threads); `most` as above.
inline int loop_threads(int most = 0) {
  if (most > 0) return most;
  return static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 4u));
}

}  // namespace gkebuild::render
