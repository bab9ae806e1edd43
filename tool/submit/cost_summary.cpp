#include "tool/submit/cost_summary.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

namespace gkebuild::submit {
namespace {

// One accelerator (or CPU machine type) and provisioning of the plan, summed over its Jobs.
struct Group {
  long long jobs = 0;
  long long pods = 0;            // completions
  long long gpus_at_once = 0;    // GPUs of the pods that may run at once
  double gpu_hours_bound = 0;    // each Job's pods at once, for its whole deadline
};

long long field_or(const nlohmann::json& spec, const char* name, long long fallback) {
  const auto found = spec.find(name);
  return found != spec.end() && found->is_number_integer() ? found->get<long long>() : fallback;
}

// "1 Job", "2 Jobs".
std::string count(long long n, const char* noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

std::string hours(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g h", seconds / 3600);
  return text;
}

// (accelerator, provisioning, machine type): the machine type only for CPU-only Jobs (no accelerator).
using GroupKey = std::tuple<std::string, std::string, std::string>;

struct Totals {
  std::map<GroupKey, Group> groups;
  long long pods = 0;
  std::set<long long> deadlines;
  bool unbounded = false;  // a GPU Job without activeDeadlineSeconds may run for ever
};

Totals totals_of(const RunPlan& plan) {
  Totals totals;
  for (const auto& job : plan.jobs) {
    const nlohmann::json& spec = job.manifest.object.is_object() ? job.manifest.object.value("spec", nlohmann::json::object())
                                                                   : nlohmann::json::object();
    const long long completions = field_or(spec, "completions", job.completions);
    const long long at_once = std::min(field_or(spec, "parallelism", 1), completions);
    const long long deadline = field_or(spec, "activeDeadlineSeconds", 0);
    Group& group = totals.groups[{job.accelerator, job.provisioning, job.gpus == 0 ? job.machine_type : ""}];
    ++group.jobs;
    group.pods += completions;
    group.gpus_at_once += at_once * job.gpus;
    group.gpu_hours_bound += static_cast<double>(at_once * job.gpus) * static_cast<double>(deadline) / 3600;
    totals.pods += completions;
    if (deadline > 0) totals.deadlines.insert(deadline);
    if (deadline <= 0 && job.gpus > 0) totals.unbounded = true;
  }
  return totals;
}

// The catalog's price of a group's GPUs, or null: the catalog prices GPUs only (a CPU-only
// group is counted, not priced), and flex-start and queued runs are billed at DWS prices:
// without one in the catalog they stay unpriced (an on-demand rate would overstate them by
// up to half).
const catalog::Price* price_of(const GroupKey& key, const catalog::Catalog& catalog) {
  const auto& [label, provisioning, machine] = key;
  const catalog::Accelerator* accelerator = label.empty() ? nullptr : catalog.find(label);
  return accelerator && accelerator->price_for(provisioning) ? &*accelerator->price_for(provisioning) : nullptr;
}

}  // namespace

std::string dollars(double amount) {
  char text[32];
  std::snprintf(text, sizeof text, amount < 100 ? "$%.2f" : "$%.0f", amount);
  return text;
}

WorstCase worst_case(const RunPlan& plan, const catalog::Catalog& catalog) {
  const Totals totals = totals_of(plan);
  WorstCase worst;
  worst.unbounded = totals.unbounded;
  for (const auto& [key, group] : totals.groups) {
    worst.gpu_hours += group.gpu_hours_bound;
    if (const auto* price = price_of(key, catalog)) worst.usd += group.gpu_hours_bound * price->usd_per_gpu_hour;
    else if (!std::get<0>(key).empty() || !std::get<2>(key).empty())
      worst.unpriced.push_back(!std::get<0>(key).empty() ? std::get<0>(key) + " (" + std::get<1>(key) + ")"
                                                         : "CPU-only " + std::get<2>(key));
  }
  return worst;
}

std::string cost_summary(const RunPlan& plan, const catalog::Catalog& catalog) {
  const Totals totals = totals_of(plan);
  const auto& [groups, pods, deadlines, unbounded] = totals;
  std::string text = "plan: " + count(static_cast<long long>(plan.jobs.size()), "Job") + ", " + count(pods, "pod") +
                     ", experiment " + plan.experiment + ", namespace " + plan.namespace_name + "\n";
  double per_hour = 0;
  double bound = 0;
  std::set<std::string> dates;
  std::vector<std::string> unpriced;
  for (const auto& [key, group] : groups) {
    const auto& [label, provisioning, machine] = key;
    const std::string what = !label.empty() ? label : machine.empty() ? "no GPU" : "CPU-only " + machine;
    text += "  " + what + " (" + provisioning + "): " + count(group.jobs, "Job") + ", " + count(group.pods, "pod") + ", " +
            count(group.gpus_at_once, "GPU") + " at once";
    if (label.empty() && !machine.empty()) {
      text += ", no catalog price for CPU machine types\n";
      unpriced.push_back(machine);
      continue;
    }
    if (const auto* price = price_of(key, catalog)) {
      text += ", " + dollars(price->usd_per_gpu_hour) + "/GPU-hour";
      per_hour += group.gpus_at_once * price->usd_per_gpu_hour;
      bound += group.gpu_hours_bound * price->usd_per_gpu_hour;
      dates.insert(price->date);
    } else if (!label.empty()) {
      const bool dws = provisioning == "flex-start" || provisioning == "queued";
      text += dws ? ", no DWS (flex-start) price in the catalog" : ", no catalog price";
      unpriced.push_back(label);
    }
    text += "\n";
  }
  if (dates.empty()) return text + (unpriced.empty() ? "" : "  cost: unknown (no catalog price)\n");
  std::string deadline_text;
  for (long long deadline : deadlines) deadline_text += (deadline_text.empty() ? "" : ", ") + hours(deadline);
  std::string date_text;
  for (const auto& date : dates) date_text += (date_text.empty() ? "" : ", ") + date;
  text += "  cost: about " + dollars(per_hour) + " per hour with every pod running; " +
          (unbounded ? std::string("no upper bound (a Job has no activeDeadlineSeconds)")
                     : "at most " + dollars(bound) + " if every Job runs to its deadline (" + deadline_text + ")") +
          "; catalog GPU prices of " + date_text + ", GPUs only";
  if (!unpriced.empty()) text += ", without " + std::to_string(unpriced.size()) + " unpriced accelerators or machine types";
  return text + "\n";
}

}  // namespace gkebuild::submit
