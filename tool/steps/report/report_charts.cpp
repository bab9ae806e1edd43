#include "tool/steps/report/report_charts.h"

#include <algorithm>

#include "tool/steps/report/report_tables.h"

namespace gkebuild::report {
namespace {

constexpr double kChartWidth = 470;
constexpr double kGap = 20;
constexpr double kCaseTitleHeight = 30;
constexpr double kMargin = 10;

// Why a cost bar is missing, short enough to sit where the bar would be.
std::string missing_cost(const ThroughputRow& row) {
  return row.label ? "n/a (no price in the catalog)" : "n/a (CPU, no GPU price)";
}

}  // namespace

BarChart throughput_chart(const std::vector<const ThroughputRow*>& rows) {
  const auto& key = rows.front()->key;
  BarChart chart{"Throughput", key.unit + " (bar: median; whiskers: min-max)", {{"median", "#4c78a8"}}, {}};
  for (const auto* row : rows) chart.bars.push_back({row->accelerator, {{row->median, row->min, row->max}}});
  return chart;
}

std::optional<BarChart> cost_chart(const std::vector<const ThroughputRow*>& rows) {
  if (rows.front()->unit_costs.empty()) return std::nullopt;
  const std::string& unit = rows.front()->unit_costs.front().unit;
  BarChart chart{"Cost per " + unit, "USD per " + unit + " (whiskers: at max-min throughput)",
                 {{"on demand", "#f58518"}, {"spot", "#54a24b"}}, {}};
  for (const auto* row : rows) {
    const UnitCost& cost = row->unit_costs.front();
    std::string missing = missing_cost(*row);
    chart.bars.push_back({row->accelerator,
                          {{cost.on_demand, cost.on_demand_low, cost.on_demand_high, missing},
                           {cost.spot, cost.spot_low, cost.spot_high, missing}}});
  }
  return chart;
}

std::string write_svg(const Report& report) {
  auto cases = rows_by_case(report);
  if (cases.empty()) return "";
  std::vector<double> heights;
  double total = kMargin;
  for (const auto& rows : cases) {
    auto cost = cost_chart(rows);
    double height = std::max(bar_chart_height(throughput_chart(rows)), cost ? bar_chart_height(*cost) : 0.0);
    heights.push_back(height);
    total += kCaseTitleHeight + height + kGap;
  }
  double width = 2 * kChartWidth + kGap + 2 * kMargin;
  SvgWriter svg(width, total, "gkebuild report: throughput and cost per unit of work by accelerator");
  double y = kMargin;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto& rows = cases[i];
    // With the unit: a case measured in two units has two rows of charts.
    svg.text(kMargin, y + 18, rows.front()->key.title() + " (" + rows.front()->key.unit + ")",
             {14, "start", true});
    svg.begin_group(kMargin, y + kCaseTitleHeight);
    draw_bar_chart(svg, throughput_chart(rows), kChartWidth);
    svg.end_group();
    if (auto cost = cost_chart(rows)) {
      svg.begin_group(kMargin + kChartWidth + kGap, y + kCaseTitleHeight);
      draw_bar_chart(svg, *cost, kChartWidth);
      svg.end_group();
    }
    y += kCaseTitleHeight + heights[i] + kGap;
  }
  return svg.finish();
}

}  // namespace gkebuild::report
