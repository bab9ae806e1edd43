// What `gkebuild report` computes from run records, before it is written as Markdown, CSV,
// JSON, SVG or HTML: every writer reads this one structure, so they always agree.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/source_error.h"
#include "tool/core/runrecord/results_file.h"

namespace gkebuild::report {

// One measured case: the same workload, precision, shape, metric and unit, at the same sweep
// point (different points are never pooled).
struct CaseKey {
  std::string workload;
  std::string precision;  // "" where none applies
  std::string shape;      // "k=4096 m=4096 n=4096"
  std::string metric;
  std::string unit;
  // The Job's sweep point less the variables pooled over (--group-by): "lr=0.1 seed=0"; "" for none.
  std::string parameters;
  // The same point variable by variable, as text ("lr", "0.1"): CSV's columns.
  std::vector<std::pair<std::string, std::string>> point;

  // "gemm-bench fp32 k=4096 m=4096 n=4096", then the parameters
  std::string title() const;
  auto operator<=>(const CaseKey&) const = default;
};

// A value far from the rest by the MAD rule, and where it came from.
struct Outlier {
  double value = 0;
  double z = 0;  // modified z-score
  std::string run;
  std::string job;
  SourceLocation where;  // results.jsonl:line
};

// Cost of one unit of work, from the median throughput (low/high: at max/min throughput).
struct UnitCost {
  std::string unit;  // "10^15 FLOP", "1,000 samples", "epoch"
  std::optional<double> seconds;  // one unit at the median throughput
  std::optional<double> on_demand, on_demand_low, on_demand_high;
  std::optional<double> spot, spot_low, spot_high;
};

// One accelerator's throughput in one case.
struct ThroughputRow {
  CaseKey key;
  std::string accelerator;        // display name: "nvidia-l4", "2x nvidia-l4", "cpu (local)"
  std::optional<std::string> label;  // catalog label; nullopt for a CPU run
  int gpus = 0;                   // per Job
  std::size_t samples = 0;
  double median = 0, min = 0, max = 0;
  std::vector<std::string> jobs;  // the Jobs that measured it
  std::optional<double> wall_seconds;  // median over those Jobs of end - start
  double gpu_hours = 0;                // sum over those Jobs of GPUs x wall time
  std::string machine_type;            // of the Jobs' nodes ("local" for the local runner)
  double node_hours = 0;               // sum over those Jobs of nodes x wall time
  // node_hours x the whole node's price (vCPUs, memory, every GPU of the machine) at each rate
  std::optional<double> cost_on_demand, cost_spot;
  // Each Job at the rate of the provisioning it recorded; nullopt if one has no price.
  std::optional<double> cost_as_run;
  std::vector<UnitCost> unit_costs;
  std::optional<double> speedup;     // median / baseline median
  std::optional<double> cost_ratio;  // on-demand cost per unit / the baseline's
  std::vector<Outlier> outliers;
  std::size_t stopped_jobs = 0;  // Jobs stopped before they finished (counted with --include-stopped)
};

// One Job's values of a metric over its steps (or epochs): a learning curve.
struct Curve {
  std::string run, job;
  std::vector<std::pair<double, double>> points;  // (step, value), by step
};

// Any other metric (time, max_error, loss, accuracy…): its spread, no cost.
struct MetricRow {
  CaseKey key;
  std::string accelerator;
  int gpus = 0;
  std::size_t samples = 0;  // per-step lines: only each Job's last step
  std::size_t jobs = 0;
  double median = 0, min = 0, max = 0;
  double last = 0;  // median over the Jobs of each one's last value (its last step, else last line)
  std::size_t stopped_jobs = 0;  // Jobs stopped before they finished (counted with --include-stopped)
  std::vector<Curve> curves;     // of the Jobs whose lines carry a step or epoch
  std::string step_name;         // "step" or "epoch", as the curves' lines name it; "" for none
};

struct PriceRow {
  std::string accelerator;
  std::string machine_type;
  std::optional<double> on_demand, spot;  // USD per node-hour: the machine with its GPUs
  std::string source;  // of the on-demand figure, with its date
  std::string note;    // why there is no price
};

struct RunSummary {
  std::string name;
  std::string target;   // cluster or local
  std::string created;  // RFC 3339
  std::size_t jobs = 0;
  std::size_t result_lines = 0;  // used
  std::size_t skipped_lines = 0;
  bool results_file_found = false;
};

// The table of sweep points: one row per point (and accelerator), one column per metric.
struct PointsView {
  std::optional<bool> shown;  // --points; nullopt: shown when the report compares no accelerators
  std::string value = "last";  // which value of each metric: last, best, min, max, median
  std::string sort;            // the metric the rows are sorted by; "": a loss, error or accuracy
  bool descending = false;     // --desc (else the sort metric's better end first)
};

// One trial of a search: a Job of a run whose experiment has `search:`.
struct SearchTrial {
  std::string job;
  std::vector<std::pair<std::string, std::string>> point;  // its variables, as text
  std::string state;    // succeeded, stopped, failed…
  std::string outcome;  // "ran to step 27", or why it stopped or failed (the rung it reached)
  std::optional<double> last_step;    // the last step it reported: the steps it ran
  std::optional<double> value;        // the objective at that step
  std::optional<double> best_so_far;  // the best finished trial's value up to this one, in trial order
  double gpu_hours = 0;               // GPUs x nodes x its wall time
};

// `report`'s view of a search: every trial, the best by the objective, and what it spent.
struct SearchView {
  std::string run, algorithm, stopping;
  std::string metric;  // the objective's; "" when the search has none (no best trial then)
  bool minimize = true;
  std::vector<SearchTrial> trials;  // in the run's Job order
  std::optional<std::size_t> best;  // index into trials: the best that ran to the end
  double steps_run = 0;             // the steps the trials reported, summed
  double steps_full = 0;            // every trial to the most steps any trial reached
  double gpu_hours = 0;
  double gpu_hours_full = 0;  // each trial's GPU-hours scaled to the most steps: the full grid's estimate
};

struct Report {
  std::string catalog_date;
  // The region whose prices cost on demand and cost spot use: the runs' recorded region, or
  // us-central1 when none recorded one (a note says which); cost as run uses each run's own.
  std::string price_region;
  std::string baseline;  // as asked, or "" for the slowest accelerator of each case
  std::vector<RunSummary> runs;
  std::vector<ThroughputRow> throughput;  // grouped by case, fastest first
  std::vector<MetricRow> metrics;
  std::vector<PriceRow> prices;
  std::vector<runrecord::SkippedLine> skipped;
  std::vector<std::string> notes;  // mixed units, missing prices, unfinished Jobs…
  PointsView points;
  std::vector<SearchView> searches;  // one per run of an experiment with `search:`
};

}  // namespace gkebuild::report
