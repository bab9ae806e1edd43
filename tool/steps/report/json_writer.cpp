#include <cmath>

#include <nlohmann/json.hpp>

#include "tool/steps/report/report_writers.h"

namespace gkebuild::report {
namespace {

using nlohmann::json;

json optional_json(const std::optional<double>& value) { return value ? json(*value) : json(nullptr); }

json key_json(const CaseKey& key) {
  json point = json::object();
  for (const auto& [name, value] : key.point) point[name] = value;
  return {{"workload", key.workload}, {"precision", key.precision}, {"shape", key.shape},
          {"metric", key.metric}, {"unit", key.unit},
          {"parameters", key.parameters}, {"point", point}};
}

json metric_json(const MetricRow& row) {
  json curves = json::array();
  for (const auto& curve : row.curves) {
    json steps = json::array();
    for (const auto& [step, value] : curve.points) steps.push_back({step, value});
    curves.push_back({{"run", curve.run}, {"job", curve.job}, {"steps", steps}});
  }
  return {{"case", key_json(row.key)}, {"accelerator", row.accelerator}, {"gpus", row.gpus},
          {"values", row.samples}, {"jobs", row.jobs}, {"median", row.median}, {"min", row.min},
          {"max", row.max}, {"last", row.last}, {"stopped_jobs", row.stopped_jobs}, {"curves", curves}};
}

json unit_cost_json(const UnitCost& cost) {
  return {{"unit", cost.unit},
          {"seconds", optional_json(cost.seconds)},
          {"on_demand_usd", optional_json(cost.on_demand)},
          {"on_demand_usd_range", {optional_json(cost.on_demand_low), optional_json(cost.on_demand_high)}},
          {"spot_usd", optional_json(cost.spot)},
          {"spot_usd_range", {optional_json(cost.spot_low), optional_json(cost.spot_high)}}};
}

json outlier_json(const Outlier& outlier) {
  // z is null where the MAD is 0 (the score is infinite then).
  return {{"value", outlier.value}, {"z", std::isfinite(outlier.z) ? json(outlier.z) : json(nullptr)},
          {"run", outlier.run}, {"job", outlier.job}, {"where", to_string(outlier.where)}};
}

json throughput_json(const ThroughputRow& row) {
  json costs = json::array(), outliers = json::array();
  for (const auto& cost : row.unit_costs) costs.push_back(unit_cost_json(cost));
  for (const auto& outlier : row.outliers) outliers.push_back(outlier_json(outlier));
  return {{"case", key_json(row.key)}, {"accelerator", row.accelerator},
          {"label", row.label ? json(*row.label) : json(nullptr)}, {"gpus", row.gpus},
          {"values", row.samples}, {"median", row.median}, {"min", row.min}, {"max", row.max},
          {"jobs", row.jobs}, {"wall_seconds", optional_json(row.wall_seconds)},
          {"gpu_hours", row.label ? json(row.gpu_hours) : json(nullptr)},
          {"machine_type", row.machine_type}, {"node_hours", row.node_hours},
          {"cost_on_demand_usd", optional_json(row.cost_on_demand)},
          {"cost_spot_usd", optional_json(row.cost_spot)}, {"cost_as_run_usd", optional_json(row.cost_as_run)},
          {"cost_per_unit", costs},
          {"speedup", optional_json(row.speedup)}, {"cost_ratio", optional_json(row.cost_ratio)},
          {"outliers", outliers}, {"stopped_jobs", row.stopped_jobs}};
}

json runs_json(const Report& report) {
  json runs = json::array();
  for (const auto& run : report.runs)
    runs.push_back({{"run", run.name}, {"target", run.target}, {"created", run.created},
                    {"jobs", run.jobs}, {"result_lines", run.result_lines},
                    {"skipped_lines", run.skipped_lines}, {"results_file", run.results_file_found}});
  return runs;
}

json prices_json(const Report& report) {
  json prices = json::array();
  for (const auto& price : report.prices)
    prices.push_back({{"accelerator", price.accelerator}, {"machine_type", price.machine_type},
                      {"on_demand_usd_per_node_hour", optional_json(price.on_demand)},
                      {"spot_usd_per_node_hour", optional_json(price.spot)},
                      {"source", price.source}, {"note", price.note}});
  return prices;
}

json searches_json(const Report& report) {
  json searches = json::array();
  for (const auto& view : report.searches) {
    json trials = json::array();
    for (const auto& trial : view.trials) {
      json point = json::object();
      for (const auto& [name, value] : trial.point) point[name] = value;
      trials.push_back({{"job", trial.job}, {"point", point}, {"state", trial.state}, {"outcome", trial.outcome},
                        {"last_step", optional_json(trial.last_step)}, {"value", optional_json(trial.value)},
                        {"best_so_far", optional_json(trial.best_so_far)}, {"gpu_hours", trial.gpu_hours}});
    }
    searches.push_back({{"run", view.run}, {"algorithm", view.algorithm}, {"stopping", view.stopping},
                        {"objective", view.metric.empty() ? json(nullptr)
                                                          : json{{"metric", view.metric},
                                                                 {"goal", view.minimize ? "minimize" : "maximize"}}},
                        {"best", view.best ? json(view.trials[*view.best].job) : json(nullptr)},
                        {"steps_run", view.steps_run}, {"steps_full", view.steps_full},
                        {"gpu_hours", view.gpu_hours}, {"gpu_hours_full_estimate", view.gpu_hours_full},
                        {"trials", trials}});
  }
  return searches;
}

}  // namespace

std::string write_json(const Report& report) {
  json throughput = json::array(), metrics = json::array(), skipped = json::array();
  for (const auto& row : report.throughput) throughput.push_back(throughput_json(row));
  for (const auto& row : report.metrics) metrics.push_back(metric_json(row));
  for (const auto& line : report.skipped)
    skipped.push_back({{"where", to_string(line.where)}, {"reason", line.reason}});
  json document = {{"schema", "gkebuild.report.v1"}, {"catalog_date", report.catalog_date},
                   {"price_region", report.price_region},
                   {"baseline", report.baseline.empty() ? json(nullptr) : json(report.baseline)},
                   {"runs", runs_json(report)}, {"throughput", throughput}, {"metrics", metrics},
                   {"prices", prices_json(report)}, {"skipped", skipped}, {"notes", report.notes},
                   {"searches", searches_json(report)}};
  return document.dump(2) + "\n";
}

}  // namespace gkebuild::report
