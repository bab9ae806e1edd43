#include "base/huge_heap.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>

namespace gkebuild {

void prepare_huge_heap(std::size_t expected_bytes) {
  constexpr std::size_t kHugePage = std::size_t{2} << 20;
  constexpr std::size_t kMaxPad = std::size_t{256} << 20;
  const std::size_t pad = std::clamp(expected_bytes, kHugePage, kMaxPad);
  // Large blocks (the values file's text) come from the heap too, instead of mappings of their
  // own; the heap grows by `pad` at a time and is not trimmed back while the process runs.
  constexpr std::size_t kMaxMmapThreshold = std::size_t{32} << 20;  // glibc refuses more on 64-bit
  if (!mallopt(M_MMAP_THRESHOLD, static_cast<int>(std::min(pad, kMaxMmapThreshold))) || !mallopt(M_TOP_PAD, static_cast<int>(pad)) ||
      !mallopt(M_TRIM_THRESHOLD, static_cast<int>(2 * pad)))
    return;
  // One block larger than the heap's free top grows the heap by it and `pad` now; freed, it
  // stays as the heap's free top.
  void* block = std::malloc(kHugePage);
  if (!block) return;
  const auto begin = (reinterpret_cast<std::uintptr_t>(block) + kHugePage - 1) & ~(kHugePage - 1);
  const auto end = reinterpret_cast<std::uintptr_t>(sbrk(0));
  std::free(block);
  if (end > begin + kHugePage)
    madvise(reinterpret_cast<void*>(begin), (end - begin) & ~(kHugePage - 1), MADV_HUGEPAGE);
}

}  // namespace gkebuild
