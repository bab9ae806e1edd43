// Sweep axes given on the command line: each replaces the experiment's axis of that name, or adds it;
// one that names a search variable fixes it (the search samples the others).
#pragma once

#include <string>
#include <vector>

#include "tool/core/project/project.h"
#include "tool/submit/run_plan.h"

namespace gkebuild::submit {

// Values are typed as YAML scalars (`4096` a number, `fp16` a string). An axis without
// values, or with an empty one, throws Error(kBadInput).
void apply_sweep_overrides(project::Experiment& experiment, const std::vector<SweepOverride>& sweeps);

}  // namespace gkebuild::submit
