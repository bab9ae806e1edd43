// Running work items on a bounded number of threads.
#pragma once

#include <cstddef>
#include <functional>

namespace gkebuild::registry {

// Calls `work(i)` for i in [0, count) on at most `jobs` threads. After the
// first exception no new item starts; that exception is rethrown at the end.
void run_parallel(size_t count, int jobs, const std::function<void(size_t)>& work);

}  // namespace gkebuild::registry
