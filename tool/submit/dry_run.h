// `gkebuild submit --dry-run`: prints exactly the YAML a submit would apply and, where a
// kubeconfig names a reachable cluster, sends it with dryRun=All so the API server and
// its admission webhooks check it too. Nothing is built, pushed, stored or recorded.
#pragma once

#include "project/project.h"
#include "submit/run_plan.h"
#include "submit/submit.h"

namespace gkebuild::submit {

// Succeeded when the server accepted everything (or there is no cluster to ask), failed when it refused.
Outcome dry_run(const SubmitOptions& options, const project::Project& project, PlanRequest request);

}  // namespace gkebuild::submit
