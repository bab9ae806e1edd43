// For a process about to fill tens of megabytes of heap (a large values file and what is
// rendered from it): asks for that heap at once, backed by 2 MiB pages where the kernel
// offers them (transparent huge pages, "madvise" mode), like glibc's glibc.malloc.hugetlb=1
// tunable. Each 4 KiB page costs a page fault on first touch; on the 10,000-record render
// benchmark those 7,000 faults were a sixth of the CPU time.
#pragma once

#include <cstddef>

namespace gkebuild {

// Best effort: does nothing where the kernel or the allocator says no.
void prepare_huge_heap(std::size_t expected_bytes);

}  // namespace gkebuild
