// The manifest loader of `gkebuild validate`: YAML documents with positions, aliases, `kind: List`.
#include "fuzz_target.h"
#include "tool/steps/validate/yaml_loader.h"

GKEBUILD_FUZZ_TARGET(gkebuild::validate::load_manifests(input, "fuzz.yaml"))
