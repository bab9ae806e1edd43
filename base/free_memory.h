// Giving freed heap pages back to the system, for a long-lived process that has just let go of
// a large structure it built once (a big sweep's plan) and goes on for hours with other
// threads: glibc keeps the pages of its main arena for reuse, and threads that allocate from
// arenas of their own never reuse them.
#pragma once

namespace gkebuild {

// malloc_trim(0) where the C library is glibc; nothing elsewhere (other allocators return
// pages as they see fit).
void release_free_memory();

// From now on every thread allocates from the main arena (mallopt M_ARENA_MAX 1, glibc only):
// for a process that builds a large structure, lets it go and then allocates on other threads
// (the follow's watches and log streams), whose own arenas would grow beside the freed pages
// instead of reusing them. A following 2,000-Job sweep peaked 9 MB lower. Call it before the
// threads start; those allocating at once on every core (a big render) are slowed a little.
void use_one_malloc_arena();

}  // namespace gkebuild
