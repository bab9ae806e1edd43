// What `submit --local` does with a pod template it cannot run as the cluster would. The
// local runner starts one container of the image with its command, args, env, working
// folder and CPU/memory limits, in a network namespace of its own; a project's own job
// template may ask for more. What would reach the host (its folders, network, process
// table, devices, privileges) is refused before anything is built; what is merely absent
// here is named on stderr as dropped. Scheduling (nodeSelector, tolerations, affinity …)
// has no meaning on one machine and is passed over in silence.
#pragma once

#include <ostream>

#include "tool/steps/plan/run_plan.h"

namespace gkebuild::submit {

// Throws SourceError at the field's line and column in the rendered Job (the first Job that
// asks for it) for a field that cannot be honoured safely; writes one "drops …" line per
// other field the runner leaves out, for the first Job that has it.
void check_local_pod_templates(const plan::RunPlan& plan, std::ostream& err);

}  // namespace gkebuild::submit
