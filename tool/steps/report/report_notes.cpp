#include "tool/steps/report/report_notes.h"

#include <algorithm>
#include <map>
#include <set>

#include "tool/core/catalog/node_price.h"
#include "tool/steps/report/number_format.h"
#include "tool/steps/report/samples.h"

namespace gkebuild::report {
namespace {

// Flex-start and queued runs: why their cost as run is n/a.
constexpr std::string_view kNoDwsPrice =
    "Flex-start and queued runs (Dynamic Workload Scheduler) have no cost as run: Google publishes no "
    "per-GPU or per-machine DWS price (its pages say only \"discounted\", \"up to 53%\"), so none is "
    "guessed.";

void note_mixed_units(Report& report, const Groups& groups) {
  // (case without unit) -> unit -> lines
  std::map<CaseKey, std::map<std::string, std::size_t>> units;
  for (const auto& [group, samples] : groups) {
    CaseKey without_unit = group.key;
    without_unit.unit.clear();
    units[without_unit][group.key.unit] += samples.size();
  }
  for (const auto& [key, counts] : units) {
    if (counts.size() < 2) continue;
    std::string list;
    for (const auto& [unit, lines] : counts)
      list += (list.empty() ? "" : ", ") + unit + ": " + count_of(lines, "line");
    report.notes.push_back("Mixed units: " + key.metric + " of " + key.title() + " comes in " +
                           std::to_string(counts.size()) + " units (" + list +
                           "); each unit has its own rows and they are not compared.");
  }
}

// Which region the costs are in, when the runs do not say one region plainly.
void note_regions(Report& report, const std::vector<LoadedRun>& runs) {
  std::set<std::string> recorded;
  bool unrecorded = false;
  for (const auto& run : runs) {
    if (run.record.region.empty()) unrecorded = true;
    else recorded.insert(run.record.region);
  }
  if (recorded.empty() && !runs.empty())
    report.notes.push_back("No run recorded a region (the project file names no cluster.location, or the run is "
                           "older than gkebuild's region record): costs use " + report.price_region + " prices.");
  else if (recorded.size() > 1 || unrecorded) {
    std::string list;
    for (const auto& region : recorded) list += (list.empty() ? "" : ", ") + region;
    report.notes.push_back("The runs were priced in several regions (" + list +
                           (unrecorded ? ", and runs without one" : "") + "): cost on demand and cost spot use " +
                           report.price_region + ", cost as run each run's own (" + report.price_region +
                           " for a run without one).");
  }
}

void note_prices(Report& report, const catalog::Catalog& catalog) {
  std::set<std::string> fallbacks;
  auto note_fallback = [&](const std::string& accelerator) {
    if (accelerator.starts_with(kCpuPathOn) && fallbacks.insert(accelerator).second) {
      report.notes.push_back(accelerator + ": the Jobs had a GPU but their result lines say the workload ran "
                             "on its CPU path (no usable GPU or driver in the container), so these are not GPU "
                             "figures; the GPU time is priced all the same.");
    }
  };
  for (const auto& row : report.throughput) note_fallback(row.accelerator);
  for (const auto& row : report.metrics) note_fallback(row.accelerator);
  std::set<std::string> seen;
  for (const auto& row : report.throughput) {
    if (!seen.insert(row.label.value_or("") + " " + row.machine_type).second) continue;
    if (!row.label && row.machine_type == "local") {
      report.notes.push_back(row.accelerator +
                             " ran without a GPU on the local machine: no cloud price applies, "
                             "so its cost is n/a.");
      continue;
    }
    const auto* accelerator = row.label ? catalog.find(*row.label) : nullptr;
    if (row.label && !accelerator) {
      report.notes.push_back(*row.label + " is not in the accelerator catalog" +
                             catalog.suggestion(*row.label) + ": its cost is n/a.");
    } else {
      // Why on-demand or spot has no rate in the report's region: the GPU or the machine type
      // lacks a figure there (never another region's stand-in); the reason says where it has one.
      std::string why_on_demand, why_spot;
      const bool gpu_on_demand = !accelerator || accelerator->price_in("on-demand", report.price_region, why_on_demand);
      const bool gpu_spot = !accelerator || accelerator->price_in("spot", report.price_region, why_spot);
      const auto machine = catalog::node_rate(catalog, row.machine_type, nullptr, "on-demand", report.price_region);
      if (!gpu_on_demand || !gpu_spot)
        report.notes.push_back(*row.label + ": " + (gpu_on_demand ? why_spot : why_on_demand) + "; its " +
                               (gpu_on_demand ? "spot cost" : "cost") + " is n/a.");
      else if (!machine.rate)
        report.notes.push_back(row.accelerator + " ran on " +
                               (row.machine_type.empty() ? "an unrecorded machine type" : row.machine_type) + ": " +
                               machine.missing + "; its cost is n/a.");
    }
  }
}

// " (its 4 result lines are left out of every figure; --include-stopped counts them)"
std::string stopped_lines(const LoadedRun& run, const runrecord::JobRecord& job, bool include_stopped) {
  const auto lines = std::count_if(run.results.lines.begin(), run.results.lines.end(),
                                   [&](const auto& line) { return line.job == job.name; });
  if (lines == 0) return "";
  const std::string what = count_of(static_cast<std::size_t>(lines), "result line");
  return include_stopped ? " (" + what + " counted, as --include-stopped asks)"
                         : " (" + what + " left out of every figure; --include-stopped counts them)";
}

void note_jobs(Report& report, const std::vector<LoadedRun>& runs, const Groups& groups, bool include_stopped) {
  std::map<const runrecord::JobRecord*, std::set<CaseKey>> cases;
  for (const auto& [group, samples] : groups)
    if (group.key.metric == "throughput")
      for (const auto& sample : samples) cases[sample.job].insert(group.key);
  for (const auto& run : runs) {
    for (const auto& job : run.record.jobs) {
      std::string who = "Job " + job.name + " (" + run.record.run + ")";
      if (job.state != runrecord::JobState::succeeded)
        report.notes.push_back(who + " is " + std::string(runrecord::to_string(job.state)) +
                               (job.reason.empty() ? "" : ": " + job.reason) +
                               (job.state == runrecord::JobState::stopped ? stopped_lines(run, job, include_stopped) : "") +
                               ".");
      auto counted = cases.find(&job);
      if (counted == cases.end()) continue;
      if (!job.start || !job.end)
        report.notes.push_back(who + " has no " + (job.start ? "end" : "start") +
                               " time: its wall time and GPU-hours are not counted.");
      if (counted->second.size() > 1)
        report.notes.push_back(who + " measured " + count_of(counted->second.size(), "case") +
                               ": its wall time, GPU-hours and cost count in each of them.");
    }
  }
}

// What the follower did to keep Jobs going: gang restarts and moves to fallback alternatives, at
// most a few lines per run. A Job's times are those of its last attempt (the Job created last).
void note_recoveries(Report& report, const std::vector<LoadedRun>& runs) {
  constexpr std::size_t kMostPerRun = 5;
  for (const auto& run : runs) {
    std::size_t noted = 0, more = 0;
    for (const auto& job : run.record.jobs) {
      if (job.recoveries.empty()) continue;
      if (noted == kMostPerRun) {
        ++more;
        continue;
      }
      ++noted;
      std::string words;
      int restarts = 0;
      for (const auto& recovery : job.recoveries) {
        if (recovery.kind == "restart") {
          ++restarts;
          continue;
        }
        words += (words.empty() ? "" : "; ") + std::string("left ") + recovery.left + " (" + recovery.reason + ")";
      }
      if (restarts > 0)
        words = count_of(static_cast<std::size_t>(restarts), "gang restart") + (words.empty() ? "" : "; " + words);
      report.notes.push_back("Job " + job.name + " (" + run.record.run + ") ran on " +
                             job.accelerator.value_or("no GPU") + " x" + std::to_string(job.gpus) +
                             (job.provisioning.empty() ? "" : " " + job.provisioning) + " after " + words +
                             "; its wall time and cost are those of its last attempt.");
    }
    if (more > 0)
      report.notes.push_back(count_of(more, "more Job") + " of " + run.record.run +
                             " were restarted or moved to a fallback alternative (gkebuild status " + run.record.run +
                             ").");
  }
}

}  // namespace

void add_notes(Report& report, const std::vector<LoadedRun>& runs, const Groups& groups,
               const catalog::Catalog& catalog, bool include_stopped) {
  report.notes.push_back(
      "Cost counts whole nodes at the catalog's list prices in " + report.price_region +
      ": each Job's nodes x wall time x the node's hourly price, which is the machine type's vCPUs and "
      "memory plus every GPU it carries (a pod that asks for fewer is billed the whole node). Cost on "
      "demand and cost spot price every Job at that rate; cost as run at the provisioning each Job "
      "recorded, in its run's region (a reservation at on-demand rates). " + std::string(kNoDwsPrice) +
      " Not counted: disks, network, GKE's cluster management fee, committed-use and sustained-use "
      "discounts. Cost per unit of work uses the median throughput; its range uses the maximum and "
      "minimum.");
  note_regions(report, runs);
  report.notes.push_back("Outliers: |modified z| = 0.6745 |x - median| / MAD > 3.5, with 3 or more "
                         "values; they stay in the median, minimum and maximum.");
  if (report.baseline.empty())
    report.notes.push_back("Speed-up and cost ratio compare with the slowest accelerator of each case "
                           "(use --baseline ACCELERATOR to choose one).");
  note_mixed_units(report, groups);
  note_prices(report, catalog);
  note_jobs(report, runs, groups, include_stopped);
  note_recoveries(report, runs);
}

std::vector<PriceRow> price_rows(const Report& report, const catalog::Catalog& catalog) {
  std::vector<PriceRow> rows;
  std::set<std::pair<std::string, std::string>> seen;
  for (const auto& row : report.throughput) {
    if (row.machine_type == "local" || !seen.insert({row.label.value_or(""), row.machine_type}).second) continue;
    PriceRow price{row.label.value_or(row.accelerator), row.machine_type, std::nullopt, std::nullopt, "", ""};
    const auto* accelerator = row.label ? catalog.find(*row.label) : nullptr;
    if (row.label && !accelerator) {
      price.note = "not in the catalog";
      rows.push_back(price);
      continue;
    }
    const std::string& region = report.price_region;
    const auto on_demand = catalog::node_rate(catalog, row.machine_type, accelerator, "on-demand", region);
    const auto spot = catalog::node_rate(catalog, row.machine_type, accelerator, "spot", region);
    if (on_demand.rate) price.on_demand = on_demand.rate->usd_per_hour;
    if (spot.rate) price.spot = spot.rate->usd_per_hour;
    const auto* machine = catalog.machine_price(row.machine_type, region);
    if (on_demand.rate && machine) {
      price.source = machine->source + ", " + machine->date;
      std::string why;
      if (const auto gpu = accelerator ? accelerator->price_in("on-demand", region, why) : std::nullopt)
        price.source += "; GPU: " + gpu->source + ", " + gpu->date;
    }
    price.note = accelerator && !accelerator->price_note.empty() ? accelerator->price_note : on_demand.missing;
    rows.push_back(price);
  }
  return rows;
}

}  // namespace gkebuild::report
