// How the follower keeps a run going when GPUs are scarce (docs/clusters.md, "When GPUs are
// scarce"): a multi-node Job one of whose nodes was disrupted is recreated as a whole (gang
// restart), and a Job whose pods find no capacity is recreated, under the same name, as its
// next `fallback:` alternative. These are the decisions; the follower acts on them.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tool/core/kube/objects.h"
#include "tool/core/project/project.h"
#include "tool/submit/job_progress.h"
#include "tool/steps/plan/run_plan.h"

namespace gkebuild::submit {

// One `fallback:` alternative of a Job: the same Job rendered for it.
struct FallbackJob {
  kube::PreparedCreate create;
  JobPlacement placement;
  std::string describe;  // "nvidia-a100-80gb x8 on-demand"
};

// What the follower may do for one Job.
struct JobRecovery {
  kube::PreparedCreate create;  // the Job's own request: created again for a gang restart
  int restarts = 0;  // gang restarts allowed (experiment restarts:, for nodes > 1)
  std::vector<int> retriable_exit_codes;
  long long pending_timeout_seconds = 900;  // pendingTimeout: before the next alternative
  std::string describe;                     // the experiment's own placement
  std::vector<FallbackJob> fallbacks;       // in the file's order
};

// What the follower may do for each Job of `plan` that it can help: a multi-node Job with
// restarts, a Job with planned fallback alternatives (whose objects are moved out of the plan).
// `default_namespace`: where an object that names none goes.
std::map<std::string, JobRecovery> plan_recovery(const project::Experiment& experiment, plan::RunPlan& plan,
                                                 const std::string& default_namespace);

// "nvidia-h100-80gb x8 spot", "nvidia-l4 x1 on-demand, 2 nodes".
std::string describe_placement(const JobPlacement& placement);

// Why a failed Job is to be restarted as a whole: its Failed condition says the Job's
// podFailurePolicy failed it for a pod's DisruptionTarget condition (preempted, evicted, its
// node lost) or for an exit code in `retriable` (the Job controller's messages "Pod NS/NAME has
// condition DisruptionTarget matching FailJob rule at index N" and "Container C for pod NS/NAME
// failed with exit code X matching FailJob rule at index N"). nullopt: a user error, a deadline,
// or not failed.
std::optional<std::string> disruption_of(const nlohmann::json& job, const std::vector<int>& retriable);

// Why a pending Job's capacity is not coming, from its unscheduled pods' autoscaler events: a
// scale-up that failed (FailedScaleUp: GCE out of resources, quota) or one not triggered because
// the node pools are in backoff after a failed scale-up (NotTriggerScaleUp "... in backoff after
// failed scale-up"). nullopt while a scale-up may still come.
std::optional<std::string> capacity_refused(const JobProgress& job);

}  // namespace gkebuild::submit
