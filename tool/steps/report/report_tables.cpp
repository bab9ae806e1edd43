#include "tool/steps/report/report_tables.h"

#include "tool/core/catalog/node_price.h"

#include <cctype>
#include <map>

#include "tool/steps/report/number_format.h"

namespace gkebuild::report {
namespace {

std::string optional_number(const std::optional<double>& value) {
  return value ? format_number(*value) : "n/a";
}

// "$0.01 ($0.009-$0.012)": the cost at the median throughput and its range.
std::string cost_with_range(std::optional<double> middle, std::optional<double> low,
                            std::optional<double> high) {
  if (!middle) return "n/a";
  std::string text = format_usd(middle);
  if (low && high && *low != *high) text += " (" + format_usd(low) + "-" + format_usd(high) + ")";
  return text;
}

std::string outlier_cell(const ThroughputRow& row) {
  if (row.outliers.empty()) return "-";
  std::string text;
  for (const auto& outlier : row.outliers) text += (text.empty() ? "" : ", ") + format_number(outlier.value);
  return text;
}

}  // namespace

bool numeric_column(const Table& table, std::size_t column) {
  if (table.rows.empty()) return false;
  for (const auto& row : table.rows) {
    const std::string& text = row.at(column);
    bool number = !text.empty() && (std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '$' ||
                                    text[0] == '-' || text == "n/a");
    if (!number) return false;
  }
  return true;
}

std::vector<std::vector<const ThroughputRow*>> rows_by_case(const Report& report) {
  std::vector<std::vector<const ThroughputRow*>> cases;
  for (const auto& row : report.throughput) {
    if (cases.empty() || cases.back().front()->key != row.key) cases.emplace_back();
    cases.back().push_back(&row);
  }
  return cases;
}

Table throughput_table(const std::vector<const ThroughputRow*>& rows, const std::string& baseline) {
  const auto& unit = rows.front()->key.unit;
  Table table;
  table.header = {"accelerator", "values", "median " + unit, "min", "max", "wall time per run",
                  "GPU-hours", "cost on demand", "cost spot", "cost as run"};
  for (const auto& cost : rows.front()->unit_costs) {
    if (cost.unit == "epoch") table.header.push_back("time per epoch");  // a training's figure of merit
    table.header.push_back("on demand per " + cost.unit);
    table.header.push_back("spot per " + cost.unit);
  }
  std::string against = baseline.empty() ? "slowest" : baseline;
  table.header.insert(table.header.end(), {"speed-up vs " + against, "cost ratio vs " + against, "outliers"});
  for (const auto* row : rows) {
    std::vector<std::string> cells = {
        row->accelerator, std::to_string(row->samples), format_number(row->median),
        format_number(row->min), format_number(row->max),
        row->wall_seconds ? format_duration(*row->wall_seconds) : "n/a",
        row->label ? format_number(row->gpu_hours) : "n/a", format_usd(row->cost_on_demand),
        format_usd(row->cost_spot), format_usd(row->cost_as_run)};
    for (const auto& cost : row->unit_costs) {
      if (cost.unit == "epoch") cells.push_back(cost.seconds ? format_duration(*cost.seconds) : "n/a");
      cells.push_back(cost_with_range(cost.on_demand, cost.on_demand_low, cost.on_demand_high));
      cells.push_back(cost_with_range(cost.spot, cost.spot_low, cost.spot_high));
    }
    cells.insert(cells.end(), {format_ratio(row->speedup), format_ratio(row->cost_ratio), outlier_cell(*row)});
    table.rows.push_back(std::move(cells));
  }
  return table;
}

Table metrics_table(const Report& report) {
  Table table{{"case", "metric", "accelerator", "values", "median", "min", "max", "unit", "last"}, {}};
  for (const auto& row : report.metrics)
    table.rows.push_back({row.key.title(), row.key.metric, row.accelerator, std::to_string(row.samples),
                          format_number(row.median), format_number(row.min), format_number(row.max),
                          row.key.unit, format_number(row.last)});
  return table;
}

Table prices_table(const Report& report) {
  Table table{{"accelerator", "machine type", "on demand USD/node-hour", "spot USD/node-hour", "source, date", "note"},
              {}};
  for (const auto& price : report.prices)
    table.rows.push_back({price.accelerator, price.machine_type.empty() ? "-" : price.machine_type,
                          optional_number(price.on_demand), optional_number(price.spot),
                          price.source.empty() ? "-" : price.source, price.note.empty() ? "-" : price.note});
  return table;
}

std::vector<std::string> run_lines(const Report& report) {
  std::vector<std::string> lines;
  for (const auto& run : report.runs)
    lines.push_back(run.name + ": " + run.target + ", created " + run.created + ", " +
                    count_of(run.jobs, "Job") + ", " + count_of(run.result_lines, "result line") +
                    " used, " + std::to_string(run.skipped_lines) + " skipped");
  return lines;
}

std::vector<std::string> outlier_lines(const Report& report) {
  std::vector<std::string> lines;
  for (const auto& row : report.throughput)
    for (const auto& outlier : row.outliers)
      lines.push_back(row.key.title() + ", " + row.accelerator + ": " + format_number(outlier.value) +
                      " " + row.key.unit + " (modified z " + format_number(outlier.z, 3) + ", median " +
                      format_number(row.median) + "): Job " + outlier.job + " of " + outlier.run + ", " +
                      to_string(outlier.where));
  return lines;
}

std::vector<std::string> skipped_lines(const Report& report) {
  std::vector<std::string> lines;
  for (const auto& skipped : report.skipped) lines.push_back(to_string(skipped.where) + ": " + skipped.reason);
  return lines;
}

std::string basis_line(const Report& report) {
  return "Cost " + catalog::counted_text(report.price_region, report.catalog_date) + "; USD per node-hour. Baseline: " +
         (report.baseline.empty() ? "the slowest accelerator of each case" : report.baseline) + ".";
}

}  // namespace gkebuild::report
