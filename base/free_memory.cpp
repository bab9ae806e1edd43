#include "base/free_memory.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace gkebuild {

void release_free_memory() {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

}  // namespace gkebuild
