#include "tool/steps/report/search_view.h"
#include "tool/steps/report/report_build.h"

#include <algorithm>
#include <set>
#include <tuple>

#include "base/error.h"
#include "base/printable.h"
#include "base/suggest.h"
#include "tool/steps/report/report_notes.h"
#include "tool/steps/report/samples.h"
#include "tool/steps/report/throughput_row.h"

namespace gkebuild::report {
namespace {

bool is_baseline(const ThroughputRow& row, const std::string& baseline) {
  return row.accelerator == baseline ||
         (row.label && *row.label == baseline && !row.accelerator.starts_with(kCpuPathOn)) ||
         (baseline == "cpu" && !row.label);
}

void check_baseline(const Report& report, const std::string& baseline) {
  std::set<std::string> present;
  for (const auto& row : report.throughput) {
    if (is_baseline(row, baseline)) return;
    present.insert(row.label.value_or("cpu"));
  }
  std::vector<std::string> names(present.begin(), present.end());
  std::string list;
  for (const auto& name : names) list += (list.empty() ? "" : ", ") + name;
  throw Error(ErrorKind::kBadInput, "baseline " + in_quotes(baseline) + ": no run measured its throughput" +
                                        did_you_mean(baseline, names) + "; accelerators in these runs: " +
                                        (list.empty() ? "none" : list));
}

// The row each case compares with: the named baseline, or the slowest accelerator.
const ThroughputRow* baseline_row(const std::vector<ThroughputRow*>& rows, const std::string& baseline) {
  const ThroughputRow* chosen = nullptr;
  for (const auto* row : rows) {
    if (baseline.empty()) {
      if (!chosen || row->median < chosen->median) chosen = row;
    } else if (row->accelerator == baseline) {
      return row;
    } else if (!chosen && is_baseline(*row, baseline)) {
      chosen = row;
    }
  }
  return chosen;
}

void compare_with_baseline(Report& report, const std::string& baseline) {
  std::map<CaseKey, std::vector<ThroughputRow*>> cases;
  for (auto& row : report.throughput) cases[row.key].push_back(&row);
  for (auto& [key, rows] : cases) {
    const ThroughputRow* base = baseline_row(rows, baseline);
    if (!base) {
      report.notes.push_back("The baseline " + baseline + " did not measure " + key.title() +
                             ": no speed-up or cost ratio there.");
      continue;
    }
    for (auto* row : rows) {
      if (base->median > 0) row->speedup = row->median / base->median;
      if (row->unit_costs.empty() || base->unit_costs.empty()) continue;
      auto mine = row->unit_costs.front().on_demand;
      auto theirs = base->unit_costs.front().on_demand;
      if (mine && theirs && *theirs > 0) row->cost_ratio = *mine / *theirs;
    }
  }
}

void check_pooled(const std::vector<LoadedRun>& runs, const std::vector<std::string>& pooled) {
  std::set<std::string> variables;
  for (const auto& run : runs)
    for (const auto& job : run.record.jobs)
      if (job.parameters.is_object())
        for (const auto& [name, value] : job.parameters.items()) variables.insert(name);
  const std::vector<std::string> names(variables.begin(), variables.end());
  for (const auto& name : pooled) {
    if (variables.count(name)) continue;
    std::string list;
    for (const auto& each : names) list += (list.empty() ? "" : ", ") + printable(each);
    throw Error(ErrorKind::kBadInput, "--group-by " + printable(name) + ": no Job of these runs has a sweep variable '" +
                                          printable(name) + "'" + did_you_mean(name, names) +
                                          "; their variables: " + (list.empty() ? "none" : list));
  }
}

RunSummary summarize(const LoadedRun& run) {
  RunSummary summary{run.record.run, run.record.target, runrecord::format_timestamp(run.record.created),
                     run.record.jobs.size(), 0, run.results.skipped.size(), run.results.file_found};
  std::set<std::string> jobs;
  for (const auto& job : run.record.jobs) jobs.insert(job.name);
  for (const auto& line : run.results.lines) {
    if (jobs.count(line.job)) ++summary.result_lines;
    else ++summary.skipped_lines;
  }
  return summary;
}

// The region the runs recorded (the first one's when they differ); us-central1 when none did.
std::string price_region_of(const std::vector<LoadedRun>& runs) {
  for (const auto& run : runs)
    if (!run.record.region.empty()) return run.record.region;
  return std::string(catalog::Catalog::price_region);
}

}  // namespace

Report build_report(const std::vector<LoadedRun>& runs, const catalog::Catalog& catalog,
                    const std::string& baseline, const std::vector<std::string>& pooled, bool include_stopped) {
  check_pooled(runs, pooled);
  Report report;
  report.catalog_date = catalog.date();
  report.price_region = price_region_of(runs);
  report.baseline = baseline;
  for (const auto& run : runs) {
    report.runs.push_back(summarize(run));
    report.skipped.insert(report.skipped.end(), run.results.skipped.begin(), run.results.skipped.end());
  }
  Groups groups = group_samples(runs, report.skipped, pooled, include_stopped);
  std::stable_sort(report.skipped.begin(), report.skipped.end(), [](const auto& a, const auto& b) {
    return std::tie(a.where.file, a.where.line) < std::tie(b.where.file, b.where.line);
  });
  for (const auto& [group, samples] : groups) {
    if (group.key.metric == "throughput")
      report.throughput.push_back(throughput_row(group, samples, catalog, report.price_region));
    else
      report.metrics.push_back(metric_row(group, samples));
  }
  std::stable_sort(report.throughput.begin(), report.throughput.end(), [](const auto& a, const auto& b) {
    return a.key != b.key ? a.key < b.key : a.median > b.median;
  });
  if (!baseline.empty() && !report.throughput.empty()) check_baseline(report, baseline);
  add_notes(report, runs, groups, catalog, include_stopped);
  compare_with_baseline(report, baseline);
  report.prices = price_rows(report, catalog);
  report.searches = search_views(runs);
  return report;
}

std::string empty_report_reason(const Report& report) {
  if (!report.throughput.empty() || !report.metrics.empty()) return "";
  std::string reason;
  for (const auto& run : report.runs) {
    reason += "\n  " + run.name + ": ";
    if (!run.results_file_found)
      reason += "no results.jsonl (no Job has printed a result line yet)";
    else if (run.skipped_lines > 0)
      reason += "all " + std::to_string(run.skipped_lines) + " result lines were skipped";
    else
      reason += "results.jsonl holds no result lines";
  }
  return "nothing to report: no usable result lines in " +
         std::string(report.runs.size() == 1 ? "the run" : "any of the runs") + reason;
}

}  // namespace gkebuild::report
