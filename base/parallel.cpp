#include "base/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace gkebuild {

void run_parallel(size_t count, int jobs, const std::function<void(size_t)>& work) {
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr first_error;
  size_t first_error_index = count;
  std::mutex error_mutex;
  auto worker = [&] {
    while (!failed) {
      const size_t i = next++;
      if (i >= count) return;
      try {
        work(i);
      } catch (...) {
        std::lock_guard lock(error_mutex);
        if (i < first_error_index) {
          first_error = std::current_exception();
          first_error_index = i;
        }
        failed = true;
      }
    }
  };
  const size_t threads = std::min<size_t>(count, static_cast<size_t>(std::max(jobs, 1)));
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& thread : pool) thread.join();
  if (first_error) std::rethrow_exception(first_error);
}

}  // namespace gkebuild
