// Image references (registry/repository:tag@digest) as users and project files write them.
#include "fuzz_target.h"
#include "registry/transport/reference.h"

GKEBUILD_FUZZ_TARGET({
  gkebuild::registry::is_loopback_host(input);
  gkebuild::registry::parse_reference(input);
})
