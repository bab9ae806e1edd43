// Giving freed heap pages back to the system, for a long-lived process that has just let go of
// a large structure it built once (a big sweep's plan) and goes on for hours with other
// threads: glibc keeps the pages of its main arena for reuse, and threads that allocate from
// arenas of their own never reuse them.
#pragma once

namespace gkebuild {

// malloc_trim(0) where the C library is glibc; nothing elsewhere (other allocators return
// pages as they see fit).
void release_free_memory();

}  // namespace gkebuild
