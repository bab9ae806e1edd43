#include "base/huge_heap.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>

namespace gkebuild {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;
std::atomic<bool> huge_thread_heaps{false};
// Kept so that the compiler cannot drop the allocation (see prepare_huge_heap).
void* volatile filler = nullptr;

// Turns the 2 MiB at `begin` into one huge page even where some of it is in small pages
// (Linux 6.1 and later; older kernels refuse the advice and the pages stay as they are).
void collapse(std::uintptr_t begin) {
  constexpr int kCollapse = 25;  // MADV_COLLAPSE, which glibc 2.36's headers do not name yet
  madvise(reinterpret_cast<void*>(begin), kHugePage, kCollapse);
}

}  // namespace

void prepare_huge_heap(std::size_t expected_bytes) {
  constexpr std::size_t kMaxPad = std::size_t{256} << 20;
  const std::size_t pad = std::clamp(expected_bytes, kHugePage, kMaxPad);
  // Large blocks (the values file's text) come from the heap too, instead of mappings of their
  // own; the heap grows by `pad` at a time and is not trimmed back while the process runs.
  constexpr std::size_t kMaxMmapThreshold = std::size_t{32} << 20;  // glibc refuses more on 64-bit
  if (!mallopt(M_MMAP_THRESHOLD, static_cast<int>(std::min(pad, kMaxMmapThreshold))) || !mallopt(M_TOP_PAD, static_cast<int>(pad)) ||
      !mallopt(M_TRIM_THRESHOLD, static_cast<int>(2 * pad)))
    return;
  // No fast bins: glibc sorts them all back into its free lists whenever a freed block joins a
  // free top of 64 KiB or more, and with a top this large that is most frees next to it (a
  // 1,000-point sweep spent 4% of its time there; small blocks still go through the per-thread
  // cache first).
  mallopt(M_MXFAST, 0);
  // One block larger than the heap's free top grows the heap by it and `pad` now; freed, it
  // stays as the heap's free top.
  void* block = std::malloc(kHugePage);
  if (!block) return;
  const auto begin = (reinterpret_cast<std::uintptr_t>(block) + kHugePage - 1) & ~(kHugePage - 1);
  const auto end = reinterpret_cast<std::uintptr_t>(sbrk(0));
  std::free(block);
  if (end > begin + kHugePage) {
    madvise(reinterpret_cast<void*>(begin), (end - begin) & ~(kHugePage - 1), MADV_HUGEPAGE);
    // Growing the heap wrote a header at the block's end, in 4 KiB pages: those 2 MiB stay
    // in small pages unless collapsed now.
    collapse(begin);
    // The heap below `begin` can only have small pages: a block that fills it, never touched
    // and never freed, makes the blocks to come start in the huge pages (up to 2 MiB of
    // address space, no memory). The block's chunk takes exactly [block - header, begin).
    if (begin > reinterpret_cast<std::uintptr_t>(block)) filler = std::malloc(begin - reinterpret_cast<std::uintptr_t>(block));
  }
}

void use_huge_thread_heaps() { huge_thread_heaps = true; }

void prepare_thread_heap() {
  if (!huge_thread_heaps) return;
  // glibc's non-main heaps are HEAP_MAX_SIZE (64 MiB on 64-bit) mappings aligned to their
  // size, as glibc.malloc.hugetlb=1 relies on too; a new one is writable for the top pad that
  // prepare_huge_heap set. A block from the main heap lies below the program break: that heap
  // was prepared already.
  constexpr std::uintptr_t kThreadHeap = std::uintptr_t{64} << 20;
  void* probe = std::malloc(64);
  if (!probe) return;
  const auto at = reinterpret_cast<std::uintptr_t>(probe);
  if (at >= reinterpret_cast<std::uintptr_t>(sbrk(0))) {
    const std::uintptr_t heap = at & ~(kThreadHeap - 1);
    madvise(reinterpret_cast<void*>(heap), kThreadHeap, MADV_HUGEPAGE);
    collapse(heap);  // the arena's own header is in the first 2 MiB
  }
  std::free(probe);
}

}  // namespace gkebuild
