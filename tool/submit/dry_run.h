// `gkebuild submit --dry-run`: prints exactly the YAML a submit would apply and, where a
// kubeconfig names a reachable cluster, sends it with dryRun=All so the API server and
// its admission webhooks check it too. Nothing is built, pushed, stored or recorded.
#pragma once

#include "tool/core/kube/cluster_api.h"
#include "tool/core/project/project.h"
#include "tool/steps/plan/run_plan.h"
#include "tool/submit/run_secret.h"
#include "tool/submit/submit.h"

namespace gkebuild::submit {

// Succeeded when the server accepted everything (or there is no cluster to ask), failed when it refused.
// The run's Secret is not printed (its values are its whole content): a note on stderr names
// it and its keys, and the server checks it with dryRun=All like the rest.
// `connect` reaches the cluster (run_submit's).
Outcome dry_run(const SubmitOptions& options, const project::Project& project, plan::PlanRequest request,
                const RunSecret& secret, const kube::ConnectCluster& connect);

}  // namespace gkebuild::submit
