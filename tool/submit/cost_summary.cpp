#include "tool/submit/cost_summary.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

#include "tool/core/catalog/node_price.h"

namespace gkebuild::submit {
namespace {

// One accelerator (or CPU machine type), provisioning and machine type of the plan, summed over
// its Jobs. Every pod is counted as a whole node of the machine type: GKE bills nodes.
struct Group {
  long long jobs = 0;
  long long pods = 0;            // completions
  long long nodes_at_once = 0;   // pods of the Jobs that may run at once, one node each
  long long gpus_at_once = 0;    // the GPUs those pods ask for
  double node_hours_bound = 0;   // each Job's pods at once, for its whole deadline
  int pod_gpus = 0;              // GPUs one pod asks for (the group's largest)
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

// ", g2-standard-4 nodes at $0.28/node-hour (VM $0.06 + 1 GPU x $0.22)", and what is assumed.
std::string rate_text(const std::string& machine, const catalog::NodeRate& rate, const Group& group,
                      const std::string& provisioning) {
  std::string text = ", " + machine + " nodes at " + dollars(rate.usd_per_hour) + "/node-hour";
  if (rate.gpus > 0)
    text += " (VM " + dollars(rate.vm_usd_per_hour) + " + " + count(rate.gpus, "GPU") + " x " +
            dollars(rate.gpu_usd_per_hour) + ")";
  if (group.pod_gpus > 0 && group.pod_gpus < rate.gpus)
    text += "; a pod asks for " + std::to_string(group.pod_gpus) + " of its " + std::to_string(rate.gpus) +
            " GPUs, the whole node is counted";
  if (provisioning == "reservation") text += "; a reservation's VMs are billed at on-demand rates";
  return text;
}

// (accelerator, provisioning, machine type): the accelerator "" for CPU-only Jobs.
using GroupKey = std::tuple<std::string, std::string, std::string>;

struct Totals {
  std::map<GroupKey, Group> groups;
  long long pods = 0;
  std::set<long long> deadlines;
  bool unbounded = false;  // a Job without activeDeadlineSeconds may run for ever
};

Totals totals_of(const plan::RunPlan& plan) {
  Totals totals;
  auto& [groups, pods, deadlines, unbounded] = totals;
  for (const auto& job : plan.jobs) {
    const nlohmann::json& spec = job.manifest.object.is_object() ? job.manifest.object.value("spec", nlohmann::json::object())
                                                                   : nlohmann::json::object();
    const long long completions = field_or(spec, "completions", job.completions);
    const long long at_once = std::min(field_or(spec, "parallelism", 1), completions);
    const long long deadline = field_or(spec, "activeDeadlineSeconds", 0);
    Group& group = groups[{job.accelerator, job.provisioning, job.machine_type}];
    ++group.jobs;
    group.pods += completions;
    group.nodes_at_once += at_once;
    group.gpus_at_once += at_once * job.gpus;
    group.node_hours_bound += static_cast<double>(at_once) * static_cast<double>(deadline) / 3600;
    group.pod_gpus = std::max(group.pod_gpus, job.gpus);
    pods += completions;
    if (deadline > 0) deadlines.insert(deadline);
    if (deadline <= 0) unbounded = true;
  }
  return totals;
}

// "nvidia-l4", "CPU-only e2-standard-4".
std::string what_of(const GroupKey& key) {
  const auto& [label, provisioning, machine] = key;
  return !label.empty() ? label : machine.empty() ? "no GPU" : "CPU-only " + machine;
}

// The node's rate for the group's provisioning, or why there is none. Flex-start and queued runs
// are billed at DWS prices: without one in the catalog they stay unpriced (an on-demand rate
// would overstate them by up to half).
catalog::NodePricing pricing_of(const GroupKey& key, const catalog::Catalog& catalog, std::string_view region) {
  const auto& [label, provisioning, machine] = key;
  const catalog::Accelerator* accelerator = label.empty() ? nullptr : catalog.find(label);
  return !label.empty() && !accelerator ? catalog::NodePricing{std::nullopt, "no catalog price for " + label}
                                        : catalog::node_rate(catalog, machine, accelerator, provisioning, region);
}

// The region the plan is priced in: the project file's cluster region, else us-central1 (said).
std::string_view price_region(const plan::RunPlan& plan) {
  return plan.region.empty() ? catalog::Catalog::price_region : std::string_view(plan.region);
}

}  // namespace

std::string dollars(double amount) {
  char text[32];
  std::snprintf(text, sizeof text, amount < 100 ? "$%.2f" : "$%.0f", amount);
  return text;
}

WorstCase worst_case(const plan::RunPlan& plan, const catalog::Catalog& catalog) {
  const Totals totals = totals_of(plan);
  WorstCase worst;
  worst.unbounded = totals.unbounded;
  for (const auto& [key, group] : totals.groups) {
    worst.gpu_hours += group.node_hours_bound * group.pod_gpus;
    const catalog::NodePricing pricing = pricing_of(key, catalog, price_region(plan));
    if (pricing.rate) worst.usd += group.node_hours_bound * pricing.rate->usd_per_hour;
    else worst.unpriced.push_back(what_of(key) + " (" + std::get<1>(key) + ")");
  }
  return worst;
}

std::string cost_summary(const plan::RunPlan& plan, const catalog::Catalog& catalog) {
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
    const std::string what = what_of(key);
    text += "  " + what + " (" + provisioning + "): " + count(group.jobs, "Job") + ", " + count(group.pods, "pod") + ", " +
            count(group.gpus_at_once, "GPU") + " at once";
    const catalog::NodePricing pricing = pricing_of(key, catalog, price_region(plan));
    if (pricing.rate) {
      text += rate_text(machine, *pricing.rate, group, provisioning);
      per_hour += static_cast<double>(group.nodes_at_once) * pricing.rate->usd_per_hour;
      bound += group.node_hours_bound * pricing.rate->usd_per_hour;
      dates.insert(pricing.rate->dates.begin(), pricing.rate->dates.end());
    } else {
      text += ", " + pricing.missing;
      unpriced.push_back(what);
    }
    text += "\n";
  }
  const std::string where(price_region(plan));
  const std::string why_there = plan.region.empty() ? "; us-central1, as the project file names no cluster.location" : "";
  if (dates.empty())
    return text + (unpriced.empty() ? "" : "  cost: unknown (no catalog price in " + where + why_there + ")\n");
  std::string deadline_text;
  for (long long deadline : deadlines) deadline_text += (deadline_text.empty() ? "" : ", ") + hours(deadline);
  std::string date_text;
  for (const auto& date : dates) date_text += (date_text.empty() ? "" : ", ") + date;
  text += "  cost: about " + dollars(per_hour) + " per hour with every pod running; " +
          (unbounded ? std::string("no upper bound (a Job has no activeDeadlineSeconds)")
                     : "at most " + dollars(bound) + " if every Job runs to its deadline (" + deadline_text + ")") +
          "; " + catalog::counted_text(where, date_text) + why_there;
  if (!unpriced.empty()) text += "; without " + count(static_cast<long long>(unpriced.size()), "unpriced group");
  return text + "\n";
}

}  // namespace gkebuild::submit
