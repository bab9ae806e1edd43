// --sweep k=v1,v2 on the command line: replaces the experiment's axis k, or adds it.
#pragma once

#include <string>
#include <vector>

#include "project/project.h"

namespace gkebuild::submit {

// Values are typed as YAML scalars (`4096` a number, `fp16` a string). A malformed
// option is a SourceError naming it.
void apply_sweep_overrides(project::Experiment& experiment, const std::vector<std::string>& sweeps);

}  // namespace gkebuild::submit
