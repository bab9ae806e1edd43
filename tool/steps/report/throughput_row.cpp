#include "tool/steps/report/throughput_row.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>
#include <set>

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

void add_time_and_cost(ThroughputRow& row, const std::vector<const Sample*>& jobs,
                       const catalog::Accelerator* accelerator) {
  std::vector<double> walls;
  for (const auto* sample : jobs) {
    const auto& job = *sample->job;
    if (!job.start || !job.end) continue;
    double seconds = std::chrono::duration<double>(*job.end - *job.start).count();
    walls.push_back(seconds);
    row.gpu_hours += job.gpus * seconds / 3600.0;
  }
  if (!walls.empty()) row.wall_seconds = median(walls);
  if (!accelerator || walls.empty()) return;  // a CPU run has no GPU-hours to price
  if (accelerator->on_demand) row.cost_on_demand = row.gpu_hours * accelerator->on_demand->usd_per_gpu_hour;
  if (accelerator->spot) row.cost_spot = row.gpu_hours * accelerator->spot->usd_per_gpu_hour;
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

std::optional<double> epoch_of(const Sample& sample) {
  const auto& line = sample.line->line;
  auto extra = line.find("extra");
  if (extra == line.end() || !extra->is_object()) return std::nullopt;
  auto epoch = extra->find("epoch");
  if (epoch == extra->end() || !epoch->is_number()) return std::nullopt;
  return epoch->get<double>();
}

}  // namespace

ThroughputRow throughput_row(const GroupKey& group, const std::vector<Sample>& samples,
                             const catalog::Catalog& catalog) {
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
  const catalog::Accelerator* accelerator = row.label ? catalog.find(*row.label) : nullptr;
  add_time_and_cost(row, jobs, accelerator);
  row.unit_costs = unit_costs(row, samples.front().line->shape, hourly_rate(accelerator, row.gpus));
  add_outliers(row, samples, values);
  return row;
}

MetricRow metric_row(const GroupKey& group, const std::vector<Sample>& samples) {
  // Of a Job that reports per epoch, only its last epoch: a training's final loss, not its
  // first; each pod of an indexed Job prints its own. Lines without an epoch all count.
  std::map<const runrecord::JobRecord*, double> last_epoch;
  for (const auto& sample : samples)
    if (auto epoch = epoch_of(sample)) last_epoch[sample.job] = std::max(last_epoch[sample.job], *epoch);
  std::vector<double> values;
  for (const auto& sample : samples) {
    auto epoch = epoch_of(sample);
    if (!epoch || *epoch == last_epoch[sample.job]) values.push_back(sample.line->value);
  }
  MetricRow row{group.key, group.accelerator, values.size(), 0, 0, 0};
  add_spread(values, row.median, row.min, row.max);
  return row;
}

}  // namespace gkebuild::report
