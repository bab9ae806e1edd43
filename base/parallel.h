// Running independent work items on a bounded number of threads.
#pragma once

#include <cstddef>
#include <functional>

namespace gkebuild {

// Calls `work(i)` for i in [0, count) on at most `jobs` threads (the calling thread is one
// of them). After a failure no new item starts; the exception of the lowest failed index is
// rethrown at the end, so the error a user sees does not depend on thread timing.
void run_parallel(size_t count, int jobs, const std::function<void(size_t)>& work);

}  // namespace gkebuild
