// `gkebuild cluster check` and the check submit runs before it builds anything: the
// experiments' Jobs rendered (with stand-in image names) and weighed against the cluster
// (tool/steps/cluster/check.h).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "tool/core/kube/cluster_api.h"
#include "tool/core/project/project.h"
#include "tool/steps/cluster/check.h"
#include "tool/submit/run_plan.h"

namespace gkebuild::submit {

// What the Jobs of `request.experiment` (every experiment when it is empty) need of a node;
// the request's accelerators, sweeps and values apply as in submit. With cluster.failover: follow
// the Jobs of the experiments' fallback alternatives too (experiment "NAME (fallback)").
std::vector<cluster::JobNeeds> job_needs(const project::Project& project, PlanRequest request);

// Reads `cluster` and checks `needs` against it.
cluster::CheckReport check_cluster_for(kube::ClusterApi& cluster, const project::Project& project,
                                       const std::vector<cluster::JobNeeds>& needs);

// Before submit: prints the problems to `err` and throws Error (kFailed) when a Job could
// never be scheduled on `cluster` (context `context`, for the message). A cluster that cannot
// be read (no permission to list nodes) is noted, not fatal.
void check_before_submit(kube::ClusterApi& cluster, const std::string& context, const project::Project& project,
                         const PlanRequest& request, std::ostream& err);

}  // namespace gkebuild::submit
