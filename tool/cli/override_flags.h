// The flags `gkebuild render` and `gkebuild submit` share: what they change of the experiments
// before the run is planned (tool/steps/plan/overrides.h), added and parsed the same way for
// both, so that render shows the Jobs submit would create for the same flags.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "tool/steps/plan/overrides.h"

namespace gkebuild::cli {

struct OverrideFlags {
  plan::Overrides overrides;        // --accelerator, --queue, --parallelism, --values: bound as they are
  std::vector<std::string> sweeps;  // --sweep NAME=V1,V2, parsed by parsed_overrides
  std::vector<std::string> sets;    // --set key.path=value, parsed by parsed_overrides
};

// Adds --accelerator, --sweep, --set, --values, --queue and --parallelism to `command`.
void add_override_flags(CLI::App& command, OverrideFlags& flags);

// The overrides the flags give. Throws SourceError for a malformed --sweep or --set.
plan::Overrides parsed_overrides(const OverrideFlags& flags);

// --set key.path=value, split (typed later, by the values library).
std::vector<render::Assignment> set_assignments(const std::vector<std::string>& sets);

}  // namespace gkebuild::cli
