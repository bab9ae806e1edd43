// What the Jobs of a run need of a node, for `gkebuild cluster check` and the check submit runs
// before it builds anything: the Jobs planned (with stand-in image names) and read as
// tool/steps/cluster/check.h weighs them against the cluster.
#pragma once

#include <vector>

#include "tool/core/project/project.h"
#include "tool/steps/cluster/check.h"
#include "tool/steps/plan/run_plan.h"

namespace gkebuild::plan {

// What the Jobs of `request.experiment` (every experiment when it is empty) need of a node;
// the request's overrides apply as in submit. With cluster.failover: follow the Jobs of the
// experiments' fallback alternatives too (experiment "NAME (fallback)").
std::vector<cluster::JobNeeds> job_needs(const project::Project& project, PlanRequest request);

}  // namespace gkebuild::plan
