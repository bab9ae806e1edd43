// An experiment's `budget:` against the worst case of its plan (cost_summary.h's WorstCase):
// submit and submit --dry-run refuse, before anything is built or sent, a run that could pass it.
#pragma once

#include <string>

#include "tool/core/catalog/catalog.h"
#include "tool/core/project/project.h"
#include "tool/steps/plan/run_plan.h"

namespace gkebuild::submit {

// "" without a budget; else a line for the cost summary ("  budget: worst case 40 of 100
// GPU-hours, $98.00 of $500\n"). Throws SourceError at the budget key (bad input, exit 2) when
// the worst case passes it, saying by how much and what to lower, or when a usd budget cannot
// be checked (a Job without a deadline, or GPUs or machines with no catalog price).
std::string check_budget(const project::Experiment& experiment, const plan::RunPlan& plan, const catalog::Catalog& catalog);

// check_budget of the run `request` asks for, planned here (with a placeholder run id) so that
// a submit refuses before it builds or pushes an image. Does nothing without a budget.
void check_budget_early(const project::Project& project, const plan::PlanRequest& request, const catalog::Catalog& catalog);

}  // namespace gkebuild::submit
