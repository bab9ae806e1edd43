// How many threads a list of independent renders is worth.
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>

namespace gkebuild::render {

// Threads pay off only for sweeps; a handful of objects renders faster on one.
inline int parallel_jobs(size_t items) {
  constexpr size_t kItemsPerThread = 16;
  const size_t cores = std::max(1u, std::thread::hardware_concurrency());
  return static_cast<int>(std::clamp<size_t>(items / kItemsPerThread, 1, std::min<size_t>(cores, 8)));
}

}  // namespace gkebuild::render
