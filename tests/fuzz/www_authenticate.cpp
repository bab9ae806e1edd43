// WWW-Authenticate headers exactly as a (hostile) registry sends them.
#include "fuzz_target.h"
#include "registry/transport/www_authenticate.h"

GKEBUILD_FUZZ_TARGET(gkebuild::registry::parse_www_authenticate(input))
