// What a submit is about to start, said before it starts (`submit --dry-run` before its YAML,
// a real submit before it applies anything): Jobs and pods, GPUs per accelerator and
// provisioning, and the estimated cost from the catalog's prices with the date they were read:
// each pod as a whole node of its machine type (vCPUs, memory and every GPU the machine carries)
// at the rate of its provisioning.
#pragma once

#include <string>
#include <vector>

#include "tool/core/catalog/catalog.h"
#include "tool/steps/plan/run_plan.h"

namespace gkebuild::submit {

// A few lines, each ending in a newline. The cost per hour counts every pod that may run at
// once (a Job's parallelism); the upper bound lets each Job run until its
// activeDeadlineSeconds. Groups without a catalog price (a machine type not in machines.yaml,
// flex-start and queued runs: no DWS price) say why and are left out of the figures.
std::string cost_summary(const plan::RunPlan& plan, const catalog::Catalog& catalog);

// "$0.56", "$11.20", "$500": cents below $100.
std::string dollars(double amount);

// The most the plan can cost: each Job's pods that may run at once, for its whole
// activeDeadlineSeconds (what the summary calls the upper bound), priced as the summary prices them.
struct WorstCase {
  double gpu_hours = 0;
  double usd = 0;  // of the priced groups only
  bool unbounded = false;  // a Job has no activeDeadlineSeconds
  std::vector<std::string> unpriced;  // "nvidia-l4 (flex-start)", "CPU-only e2-standard-4 (on-demand)": no catalog price
};
WorstCase worst_case(const plan::RunPlan& plan, const catalog::Catalog& catalog);

}  // namespace gkebuild::submit
