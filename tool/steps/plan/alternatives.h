// The Jobs of an experiment's `fallback:` list (cluster.failover: follow): each Job rendered
// again for every alternative under its own name, as the follower creates it in its place.
#pragma once

#include "tool/core/project/project.h"
#include "tool/steps/plan/run_plan.h"
#include "tool/steps/render/options.h"

namespace gkebuild::plan {

// Adds to each Job of `plan` its alternatives, in the list's order, and to `plan.support` the
// objects an alternative needs besides (a multi-node one's headless Service). `options` are the
// ones the experiment's own Jobs were rendered with. Throws SourceError for overrides the
// follower cannot carry out (several accelerators, a queue, parallelism with a multi-node one).
void plan_alternatives(const project::Project& project, const project::Experiment& experiment,
                       const render::RenderOptions& options, bool objects, RunPlan& plan);

// The message submit gives for a JobSet: it creates and follows Indexed Jobs only.
[[noreturn]] void refuse_jobsets(const project::Project& project, const project::Experiment& experiment);

// A rendered manifest as an object (the values reader: libyaml's event API).
nlohmann::json object_of(const std::string& text, const std::string& file);

// The smallest catalog machine type with `gpus` GPUs of `accelerator`'s kind; "" when it is
// not in the catalog or none has that many.
std::string machine_type_for(const std::string& accelerator, int gpus);

}  // namespace gkebuild::plan
