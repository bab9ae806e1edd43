#include "tool/steps/report/throughput_row.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "tool/core/catalog/node_price.h"
#include "tool/steps/report/statistics.h"
#include "tool/steps/report/unit_cost.h"

namespace gkebuild::report {
namespace {

void add_spread(const std::vector<double>& values, double& middle, double& low, double& high) {
  middle = median(values);
  low = *std::min_element(values.begin(), values.end());
  high = *std::max_element(values.begin(), values.end());
}

// Each Job once, in the order its first sample appears.
std::vector<const Sample*> distinct_jobs(const std::vector<Sample>& samples) {
  std::vector<const Sample*> jobs;
  std::set<std::pair<const LoadedRun*, const runrecord::JobRecord*>> seen;
  for (const auto& sample : samples)
    if (seen.insert({sample.run, sample.job}).second) jobs.push_back(&sample);
  return jobs;
}

// The provisioning a Job recorded; older records say only spot or not.
std::string provisioning_of(const runrecord::JobRecord& job) {
  if (!job.provisioning.empty()) return job.provisioning;
  return job.spot ? "spot" : "on-demand";
}

// One node of the row's machine type at `provisioning`; none for a GPU not in the catalog.
std::optional<double> node_price(const ThroughputRow& row, const catalog::Catalog& catalog,
                                 const catalog::Accelerator* accelerator, std::string_view provisioning,
                                 std::string_view region) {
  if (row.label && !accelerator) return std::nullopt;
  const auto pricing = catalog::node_rate(catalog, row.machine_type, accelerator, provisioning, region);
  return pricing.rate ? std::optional<double>(pricing.rate->usd_per_hour) : std::nullopt;
}

// Wall time, GPU- and node-hours, and their cost: whole nodes (GKE bills the node, not the pod).
void add_time_and_cost(ThroughputRow& row, const std::vector<const Sample*>& jobs, const catalog::Catalog& catalog,
                       const catalog::Accelerator* accelerator, const std::string& region) {
  std::vector<double> walls;
  double as_run = 0;
  bool as_run_known = true;
  for (const auto* sample : jobs) {
    const auto& job = *sample->job;
    if (!job.start || !job.end) continue;
    double seconds = std::chrono::duration<double>(*job.end - *job.start).count();
    walls.push_back(seconds);
    row.gpu_hours += job.gpus * seconds / 3600.0;
    const double node_hours = std::max(job.nodes, 1) * seconds / 3600.0;
    row.node_hours += node_hours;
    const std::string& ran_in = sample->run->record.region.empty() ? region : sample->run->record.region;
    const auto rate = node_price(row, catalog, accelerator, provisioning_of(job), ran_in);
    if (rate) as_run += node_hours * *rate;
    as_run_known = as_run_known && rate;
  }
  if (walls.empty()) return;
  row.wall_seconds = median(walls);
  if (const auto rate = node_price(row, catalog, accelerator, "on-demand", region))
    row.cost_on_demand = row.node_hours * *rate;
  if (const auto rate = node_price(row, catalog, accelerator, "spot", region)) row.cost_spot = row.node_hours * *rate;
  if (as_run_known) row.cost_as_run = as_run;
}

void add_outliers(ThroughputRow& row, const std::vector<Sample>& samples,
                  const std::vector<double>& values) {
  double mad = median_absolute_deviation(values);
  for (std::size_t index : outlier_indices(values)) {
    const auto& sample = samples[index];
    row.outliers.push_back({values[index], modified_z_score(values[index], row.median, mad),
                            sample.run->record.run, sample.job->name, sample.line->where});
  }
}

std::size_t stopped_jobs(const std::vector<const Sample*>& jobs) {
  return std::count_if(jobs.begin(), jobs.end(),
                       [](const Sample* sample) { return sample->job->state == runrecord::JobState::stopped; });
}

}  // namespace

ThroughputRow throughput_row(const GroupKey& group, const std::vector<Sample>& samples,
                             const catalog::Catalog& catalog, const std::string& region) {
  ThroughputRow row;
  row.key = group.key;
  row.accelerator = group.accelerator;
  const auto& first_job = *samples.front().job;
  row.label = first_job.accelerator;
  row.gpus = first_job.gpus;
  std::vector<double> values;
  for (const auto& sample : samples) values.push_back(sample.line->value);
  row.samples = values.size();
  add_spread(values, row.median, row.min, row.max);
  auto jobs = distinct_jobs(samples);
  for (const auto* sample : jobs) row.jobs.push_back(sample->job->name);
  row.machine_type = first_job.machine_type;
  const catalog::Accelerator* accelerator = row.label ? catalog.find(*row.label) : nullptr;
  add_time_and_cost(row, jobs, catalog, accelerator, region);
  const int nodes = std::max(first_job.nodes, 1);
  auto per_job = [&](std::string_view provisioning) -> std::optional<double> {
    const auto rate = node_price(row, catalog, accelerator, provisioning, region);
    return rate ? std::optional<double>(*rate * nodes) : std::nullopt;
  };
  row.unit_costs = unit_costs(row, samples.front().line->shape, HourlyRate{per_job("on-demand"), per_job("spot")});
  add_outliers(row, samples, values);
  row.stopped_jobs = stopped_jobs(jobs);
  return row;
}

MetricRow metric_row(const GroupKey& group, const std::vector<Sample>& samples) {
  MetricRow row{group.key, group.accelerator};
  row.gpus = samples.front().job->gpus;
  // Each Job's lines in order; of a Job that reports per step (or epoch), only its last step
  // counts in the spread: a training's final loss, not its first. Each pod of an indexed Job
  // prints its own, so the last step may have several lines. Lines without a step all count.
  std::map<std::pair<const LoadedRun*, const runrecord::JobRecord*>, std::vector<const Sample*>> by_job;
  for (const auto& sample : samples) by_job[{sample.run, sample.job}].push_back(&sample);
  std::vector<double> values, lasts;
  for (const auto& [job, lines] : by_job) {
    std::optional<double> last_step;
    Curve curve{job.first->record.run, job.second->name, {}};
    for (const auto* sample : lines)
      if (auto step = step_field(*sample->line)) {
        last_step = std::max(last_step.value_or(step->value), step->value);
        curve.points.emplace_back(step->value, sample->line->value);
        if (row.step_name.empty()) row.step_name = step->name;
      }
    std::vector<double> at_last;
    for (const auto* sample : lines) {
      auto step = step_of(*sample->line);
      if (!step || *step == *last_step) at_last.push_back(sample->line->value);
    }
    values.insert(values.end(), at_last.begin(), at_last.end());
    lasts.push_back(last_step ? median(at_last) : lines.back()->line->value);
    std::stable_sort(curve.points.begin(), curve.points.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    if (!curve.points.empty()) row.curves.push_back(std::move(curve));
  }
  std::sort(row.curves.begin(), row.curves.end(),
            [](const Curve& a, const Curve& b) { return std::tie(a.run, a.job) < std::tie(b.run, b.job); });
  row.samples = values.size();
  row.jobs = by_job.size();
  add_spread(values, row.median, row.min, row.max);
  row.last = median(lasts);
  row.stopped_jobs = stopped_jobs(distinct_jobs(samples));
  return row;
}

}  // namespace gkebuild::report
