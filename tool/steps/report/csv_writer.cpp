#include <sstream>

#include <nlohmann/json.hpp>

#include "tool/steps/report/report_writers.h"

namespace gkebuild::report {
namespace {

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

}  // namespace

std::string write_csv(const Report& report) {
  std::ostringstream out;
  line_to(out, {"workload", "precision", "shape", "parameters", "metric", "unit", "accelerator", "gpus", "values", "jobs",
                "median", "min", "max", "wall_seconds", "gpu_hours", "cost_on_demand_usd", "cost_spot_usd",
                "work_unit", "seconds_per_unit", "on_demand_usd_per_unit", "spot_usd_per_unit", "speedup", "cost_ratio",
                "outliers"});
  for (const auto& row : report.throughput) {
    std::string outliers;
    for (const auto& outlier : row.outliers) outliers += (outliers.empty() ? "" : " ") + number(outlier.value);
    std::vector<UnitCost> costs = row.unit_costs;
    if (costs.empty()) costs.push_back({});  // the row still appears, without a unit of work
    for (const auto& cost : costs) {
      line_to(out, {row.key.workload, row.key.precision, row.key.shape, row.key.parameters, row.key.metric, row.key.unit,
                    row.accelerator, std::to_string(row.gpus), std::to_string(row.samples),
                    std::to_string(row.jobs.size()), number(row.median), number(row.min), number(row.max),
                    number(row.wall_seconds), row.label ? number(row.gpu_hours) : "",
                    number(row.cost_on_demand), number(row.cost_spot), cost.unit, number(cost.seconds), number(cost.on_demand),
                    number(cost.spot), number(row.speedup), number(row.cost_ratio), outliers});
    }
  }
  return out.str();
}

}  // namespace gkebuild::report
