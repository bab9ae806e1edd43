// `gkebuild submit --local` (or `cluster: local` in the project): the same Jobs run on
// this machine. The image is built into the project's OCI layout (not pushed), the Jobs
// rendered as for a cluster, and each Job's container (each completion of an Indexed Job)
// run under runc by tool/steps/local_runner (up to --max-in-flight points at once, one per GPU by
// default: local_parallel.h), with the Job's command, args and env. The run
// record is the same as a cluster's: target "local", accelerator null and gpus 0 without
// a GPU, machine_type "local".
#pragma once

#include "tool/core/project/project.h"
#include "tool/steps/plan/run_plan.h"
#include "tool/submit/run_secret.h"
#include "tool/submit/submit.h"

namespace gkebuild::submit {

// The run's secret values reach each container's environment from memory; the runtime's
// bundle that holds them (config.json) is owner-only and removed with the container.
Outcome submit_locally(const SubmitOptions& options, const project::Project& project, plan::PlanRequest request,
                       const RunSecret& secret);

}  // namespace gkebuild::submit
