// What a submit is about to start, said before it starts (`submit --dry-run` before its YAML,
// a real submit before it applies anything): Jobs and pods, GPUs per accelerator and
// provisioning, and the estimated cost from the catalog's prices with the date they were read.
#pragma once

#include <string>

#include "tool/core/catalog/catalog.h"
#include "tool/submit/run_plan.h"

namespace gkebuild::submit {

// A few lines, each ending in a newline. The cost per hour counts every pod that may run at
// once (a Job's parallelism); the upper bound lets each Job run until its
// activeDeadlineSeconds. Accelerators without a catalog price are named as such.
std::string cost_summary(const RunPlan& plan, const catalog::Catalog& catalog);

}  // namespace gkebuild::submit
