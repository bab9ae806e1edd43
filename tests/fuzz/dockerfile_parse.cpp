// The Dockerfile parser (instructions, flags, JSON forms, heredocs, line continuations).
#include "images/dockerfile/dockerfile.h"
#include "fuzz_target.h"

GKEBUILD_FUZZ_TARGET(gkebuild::dockerfile::parse(input, "Dockerfile"))
