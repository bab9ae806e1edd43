#include "tool/submit/budget.h"

#include <cmath>
#include <cstdio>

#include "base/source_error.h"
#include "tool/submit/cost_summary.h"

namespace gkebuild::submit {
namespace {

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

// What would bring the worst case within `fraction` of itself: fewer Jobs (the trials of a
// search, else the sweep's points) or a shorter timeout.
std::string what_to_lower(const project::Experiment& experiment, const plan::RunPlan& plan, double fraction) {
  const auto jobs = static_cast<long long>(plan.jobs.size());
  const auto fit = static_cast<long long>(std::floor(static_cast<double>(jobs) * fraction));
  std::string text = "; lower ";
  if (experiment.search) {
    const auto trials = static_cast<long long>(std::floor(experiment.search->trials * fraction));
    text += "search.trials (" + std::to_string(experiment.search->trials) + "; at most " + std::to_string(trials) +
            " fit)";
  } else {
    text += "the number of Jobs (" + std::to_string(jobs) + "; at most " + std::to_string(fit) + " fit: fewer sweep "
            "values or accelerators)";
  }
  const auto timeout = static_cast<long long>(std::floor(static_cast<double>(experiment.timeout_seconds) * fraction));
  return text + ", or timeout (" + std::to_string(experiment.timeout_seconds) + "s; at most " +
         std::to_string(timeout) + "s fits), or raise the budget";
}

std::string jobs_to_deadline(const plan::RunPlan& plan) {
  return " if all " + std::to_string(plan.jobs.size()) + " Jobs run to their deadline";
}

}  // namespace

std::string check_budget(const project::Experiment& experiment, const plan::RunPlan& plan, const catalog::Catalog& catalog) {
  if (!experiment.budget) return "";
  const project::Budget& budget = *experiment.budget;
  const WorstCase worst = worst_case(plan, catalog);
  if (worst.unbounded)
    throw SourceError(budget.where, "budget: a Job of this run has no activeDeadlineSeconds, so no worst case "
                                    "bounds its cost; give the experiment a timeout: (its Job template drops it?)");
  std::string line = "  budget: worst case";
  if (budget.gpu_hours) {
    if (worst.gpu_hours > *budget.gpu_hours)
      throw SourceError(budget.gpu_hours_where,
                        "budget.gpuHours: the worst case is " + number(worst.gpu_hours) + " GPU-hours" +
                            jobs_to_deadline(plan) + ", " + number(worst.gpu_hours - *budget.gpu_hours) +
                            " over the budget of " + number(*budget.gpu_hours) +
                            what_to_lower(experiment, plan, *budget.gpu_hours / worst.gpu_hours));
    line += " " + number(worst.gpu_hours) + " of " + number(*budget.gpu_hours) + " GPU-hours";
  }
  if (budget.usd) {
    if (!worst.unpriced.empty()) {
      std::string list;
      for (const auto& what : worst.unpriced) list += (list.empty() ? "" : ", ") + what;
      throw SourceError(budget.usd_where, "budget.usd: the worst case cannot be priced: the catalog has no price for " +
                                              list + "; give budget.gpuHours only, or run where the catalog prices "
                                              "its nodes");
    }
    if (worst.usd > *budget.usd)
      throw SourceError(budget.usd_where, "budget.usd: the worst case is " + dollars(worst.usd) + jobs_to_deadline(plan) +
                                              " (catalog prices of whole nodes), " + dollars(worst.usd - *budget.usd) +
                                              " over the budget of " + dollars(*budget.usd) +
                                              what_to_lower(experiment, plan, *budget.usd / worst.usd));
    line += std::string(budget.gpu_hours ? "," : "") + " " + dollars(worst.usd) + " of " + dollars(*budget.usd);
  }
  return line + "\n";
}

void check_budget_early(const project::Project& project, const plan::PlanRequest& request, const catalog::Catalog& catalog) {
  const project::Experiment* experiment = project.find_experiment(request.experiment);
  if (experiment == nullptr || !experiment->budget) return;
  plan::PlanRequest priced = request;
  priced.render.run_id = plan::stand_in_run_id(request.experiment);  // as check_plan names it
  check_budget(*experiment, plan::plan_run(project, priced), catalog);
}

}  // namespace gkebuild::submit
