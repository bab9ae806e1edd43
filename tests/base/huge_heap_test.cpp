// Huge pages for the heaps of a large render (base/huge_heap.h). A binary of its own: the
// allocator settings it changes hold for the whole process.
#include "base/huge_heap.h"

#include <gtest/gtest.h>
#include <malloc.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <latch>
#include <sstream>
#include <string>
#include <vector>

#include "base/parallel.h"

namespace gkebuild {
namespace {

bool huge_pages_on_request() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string modes;
  std::getline(in, modes);
  return modes.find("[madvise]") != std::string::npos || modes.find("[always]") != std::string::npos;
}

// The THPeligible field of the mapping that holds `p` in /proc/self/smaps; -1 if not found.
int huge_page_eligible(const void* p) {
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  std::ifstream smaps("/proc/self/smaps");
  bool inside = false;
  for (std::string line; std::getline(smaps, line);) {
    std::uintptr_t start = 0, end = 0;
    char dash = 0;
    std::istringstream header(line);
    if (header >> std::hex >> start >> dash >> end && dash == '-') {
      inside = start <= address && address < end;
    } else if (inside && line.rfind("THPeligible:", 0) == 0) {
      return std::stoi(line.substr(12));
    }
  }
  return -1;
}

TEST(HugeHeap, TheMainAndWorkerThreadsOfALargeRenderGetHugePages) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "the sanitizer's allocator replaces glibc's heaps";
#endif
  if (!huge_pages_on_request()) GTEST_SKIP() << "transparent huge pages are off on this kernel";
  prepare_huge_heap(std::size_t{16} << 20);
  // The main heap's next blocks start in huge pages, not in the small pages below the first
  // 2 MiB boundary (where the values document's first slots used to go).
  void* next = std::malloc(std::size_t{256} << 10);
  EXPECT_EQ(huge_page_eligible(next), 1);
  std::free(next);
  // Small blocks freed beyond what the per-thread cache holds go to the free lists, not to
  // fast bins that would be sorted again on later frees.
  std::vector<void*> small(64);
  for (auto& block : small) block = std::malloc(48);
  for (auto* block : small) std::free(block);
  EXPECT_EQ(mallinfo2().fsmblks, 0u);
  use_huge_thread_heaps();
  std::vector<int> eligible(2, -1);
  std::latch both_started(2);  // one item on each thread
  run_parallel(2, 2, [&](std::size_t i) {
    both_started.arrive_and_wait();
    std::vector<char> block(std::size_t{4} << 20, 1);
    eligible[i] = huge_page_eligible(block.data() + block.size() / 2);  // past the heap's first, partly used 2 MiB
  });
  EXPECT_EQ(eligible[0], 1);
  EXPECT_EQ(eligible[1], 1);
}

}  // namespace
}  // namespace gkebuild
