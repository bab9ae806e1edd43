// The Dockerfile parser (instructions, flags, JSON forms, heredocs, line continuations).
#include "fuzz_target.h"
#include "images/dockerfile/dockerfile.h"

GKEBUILD_FUZZ_TARGET(gkebuild::dockerfile::parse(input, "Dockerfile"))
