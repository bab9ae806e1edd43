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

// After prepare_huge_heap: the heaps of threads started from now on get 2 MiB pages as well.
// glibc gives each thread an arena of its own, a 64 MiB-aligned mapping that it widens a
// page at a time with mprotect, and every page of it costs a fault on first touch (a
// 1,000-point sweep rendered on two threads took 3,600 faults, a third of its CPU time).
void use_huge_thread_heaps();
// Called by each worker thread as it starts (see run_parallel); does nothing unless
// use_huge_thread_heaps was called.
void prepare_thread_heap();

}  // namespace gkebuild
