// CSV: one line per case, accelerator and metric (and unit of work, for throughput), with one
// column per sweep variable, so that it loads straight into pandas or a spreadsheet.
#include <algorithm>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tool/steps/report/report_writers.h"

namespace gkebuild::report {
namespace {

const std::vector<std::string> kLeading = {"workload", "precision", "shape"};
const std::vector<std::string> kTrailing = {
    "metric", "unit", "accelerator", "gpus", "values", "jobs", "median", "min", "max", "last", "wall_seconds",
    "gpu_hours", "cost_on_demand_usd", "cost_spot_usd", "cost_as_run_usd", "work_unit", "seconds_per_unit",
    "on_demand_usd_per_unit", "spot_usd_per_unit", "speedup", "cost_ratio", "outliers", "stopped_jobs"};

std::string field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// Shortest text that reads back as the same double; empty for a figure that is not available.
std::string number(std::optional<double> value) {
  return value ? nlohmann::json(*value).dump() : "";
}

void line_to(std::ostream& out, const std::vector<std::string>& fields) {
  for (std::size_t i = 0; i < fields.size(); ++i) out << (i ? "," : "") << field(fields[i]);
  out << "\r\n";  // RFC 4180
}

// The sweep variables of every row, sorted: one column each.
std::vector<std::string> variables(const Report& report) {
  std::set<std::string> names;
  for (const auto& row : report.throughput)
    for (const auto& [name, value] : row.key.point) names.insert(name);
  for (const auto& row : report.metrics)
    for (const auto& [name, value] : row.key.point) names.insert(name);
  return {names.begin(), names.end()};
}

// A variable named like a fixed column ("metric") gets "point_" before its name.
std::vector<std::string> header(const std::vector<std::string>& names) {
  std::vector<std::string> out = kLeading;
  for (const auto& name : names) {
    const bool taken = std::count(kLeading.begin(), kLeading.end(), name) + std::count(kTrailing.begin(), kTrailing.end(), name);
    out.push_back(taken ? "point_" + name : name);
  }
  out.insert(out.end(), kTrailing.begin(), kTrailing.end());
  return out;
}

// The case's first columns: workload, precision, shape, then each variable's value ("" where
// the point has none).
std::vector<std::string> case_fields(const CaseKey& key, const std::vector<std::string>& names) {
  std::vector<std::string> out = {key.workload, key.precision, key.shape};
  for (const auto& name : names) {
    auto found = std::find_if(key.point.begin(), key.point.end(), [&](const auto& each) { return each.first == name; });
    out.push_back(found == key.point.end() ? "" : found->second);
  }
  return out;
}

void throughput_lines(std::ostream& out, const ThroughputRow& row, const std::vector<std::string>& names) {
  std::string outliers;
  for (const auto& outlier : row.outliers) outliers += (outliers.empty() ? "" : " ") + number(outlier.value);
  std::vector<UnitCost> costs = row.unit_costs;
  if (costs.empty()) costs.push_back({});  // the row still appears, without a unit of work
  for (const auto& cost : costs) {
    std::vector<std::string> fields = case_fields(row.key, names);
    fields.insert(fields.end(),
                  {row.key.metric, row.key.unit, row.accelerator, std::to_string(row.gpus), std::to_string(row.samples),
                   std::to_string(row.jobs.size()), number(row.median), number(row.min), number(row.max), "",
                   number(row.wall_seconds), row.label ? number(row.gpu_hours) : "", number(row.cost_on_demand),
                   number(row.cost_spot), number(row.cost_as_run), cost.unit, number(cost.seconds),
                   number(cost.on_demand), number(cost.spot),
                   number(row.speedup), number(row.cost_ratio), outliers, std::to_string(row.stopped_jobs)});
    line_to(out, fields);
  }
}

void metric_line(std::ostream& out, const MetricRow& row, const std::vector<std::string>& names) {
  std::vector<std::string> fields = case_fields(row.key, names);
  fields.insert(fields.end(), {row.key.metric, row.key.unit, row.accelerator, std::to_string(row.gpus),
                               std::to_string(row.samples), std::to_string(row.jobs), number(row.median),
                               number(row.min), number(row.max), number(row.last)});
  fields.resize(fields.size() + kTrailing.size() - 11);  // no time, cost or comparison for these
  fields.push_back(std::to_string(row.stopped_jobs));
  line_to(out, fields);
}

}  // namespace

std::string write_csv(const Report& report) {
  std::ostringstream out;
  const auto names = variables(report);
  line_to(out, header(names));
  for (const auto& row : report.throughput) throughput_lines(out, row, names);
  for (const auto& row : report.metrics) metric_line(out, row, names);
  return out.str();
}

}  // namespace gkebuild::report
