#include "base/free_memory.h"

// Any C library header defines __GLIBC__ (through <features.h>); without one the checks below
// were false and both functions did nothing.
#include <cstdlib>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace gkebuild {

void release_free_memory() {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

void use_one_malloc_arena() {
#ifdef __GLIBC__
  mallopt(M_ARENA_MAX, 1);
#endif
}

}  // namespace gkebuild
