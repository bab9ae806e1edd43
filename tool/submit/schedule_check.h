// The check submit runs before it builds anything: the run's Jobs (tool/steps/plan/job_needs.h)
// weighed against the cluster (tool/steps/cluster/check.h); a Job that could never be scheduled
// stops the submit.
#pragma once

#include <ostream>
#include <string>

#include "tool/core/kube/cluster_api.h"
#include "tool/core/project/project.h"
#include "tool/steps/plan/run_plan.h"

namespace gkebuild::submit {

// Prints the problems to `err` and throws Error (kFailed) when a Job could never be scheduled
// on `cluster` (context `context`, for the message). A cluster that cannot be read (no
// permission to list nodes) is noted, not fatal.
void check_before_submit(kube::ClusterApi& cluster, const std::string& context, const project::Project& project,
                         const plan::PlanRequest& request, std::ostream& err);

}  // namespace gkebuild::submit
