#include "tool/steps/report/report_charts.h"

#include <algorithm>
#include <functional>
#include <set>

#include "tool/steps/report/metric_charts.h"

namespace gkebuild::report {
namespace {

constexpr double kChartWidth = 470;
constexpr double kGap = 20;
constexpr double kMargin = 10;
constexpr double kWidth = 2 * kChartWidth + kGap;  // inside the margins
constexpr double kHeadingSize = 14;
constexpr double kHeadingLine = 19;

// Why a cost bar is missing, short enough to sit where the bar would be.
std::string missing_cost(const ThroughputRow& row) {
  if (!row.label && row.machine_type == "local") return "n/a (local machine, no cloud price)";
  return "n/a (no price in the catalog)";
}

std::string label_of(const std::vector<const ThroughputRow*>& rows, const std::vector<std::string>& labels,
                     std::size_t index) {
  return labels.empty() ? rows[index]->accelerator : labels[index];
}

// A piece of the picture: a chart in one of two columns, or a heading or legend across both.
struct Panel {
  double height = 0;
  bool wide = false;
  std::function<void(SvgWriter&)> draw;
};

Panel heading(const std::string& text) {
  auto lines = wrap_text(text, kWidth, kHeadingSize);
  return {kHeadingLine * static_cast<double>(lines.size()) + 6, true, [lines](SvgWriter& svg) {
            for (std::size_t i = 0; i < lines.size(); ++i)
              svg.text(0, 15 + kHeadingLine * static_cast<double>(i), lines[i], {kHeadingSize, "start", true});
          }};
}

// The points' colours, in as many columns as the longest label allows.
Panel legend(const std::vector<LegendEntry>& entries) {
  double longest = 0;
  for (const auto& entry : entries) longest = std::max(longest, text_width(entry.label, 11));
  const double column = std::min(longest + 34, kWidth);
  const auto columns = static_cast<std::size_t>(std::max(kWidth / column, 1.0));
  const auto rows = (entries.size() + columns - 1) / columns;
  return {18 * static_cast<double>(rows) + 14, true, [entries, column, columns](SvgWriter& svg) {
            for (std::size_t i = 0; i < entries.size(); ++i) {
              double x = column * static_cast<double>(i % columns), y = 18 * static_cast<double>(i / columns) + 4;
              svg.polyline({{x, y + 7}, {x + 22, y + 7}}, entries[i].color, 3, entries[i].dashed);
              svg.text(x + 28, y + 11, entries[i].label, {11});
            }
          }};
}

Panel chart_panel(LineChart chart) {
  double height = line_chart_height(chart, kChartWidth);
  return {height, false, [chart = std::move(chart)](SvgWriter& svg) { draw_line_chart(svg, chart, kChartWidth); }};
}

Panel chart_panel(BarChart chart) {
  double height = bar_chart_height(chart, kChartWidth);
  return {height, false, [chart = std::move(chart)](SvgWriter& svg) { draw_bar_chart(svg, chart, kChartWidth); }};
}

void add_metric_panels(const Report& report, std::vector<Panel>& panels) {
  auto curves = curve_charts(report);
  auto bars = metric_bar_charts(report);
  if (curves.empty() && bars.empty()) return;
  panels.push_back(heading(curves.empty() ? "Measurements by point" : "Learning curves by point"));
  if (!curves.empty()) panels.push_back(legend(point_legend(report)));
  for (auto& chart : curves) panels.push_back(chart_panel(std::move(chart)));
  for (auto& chart : bars) panels.push_back(chart_panel(std::move(chart)));
}

// Throughput rows by case, where cases that differ only by their sweep point are one.
std::vector<std::vector<const ThroughputRow*>> throughput_groups(const Report& report) {
  std::vector<std::vector<const ThroughputRow*>> groups;
  auto same = [](const CaseKey& a, const CaseKey& b) {
    return std::tie(a.workload, a.precision, a.shape, a.metric, a.unit) ==
           std::tie(b.workload, b.precision, b.shape, b.metric, b.unit);
  };
  for (const auto& row : report.throughput) {  // sorted by case: a group's rows are together
    if (groups.empty() || !same(groups.back().front()->key, row.key)) groups.emplace_back();
    groups.back().push_back(&row);
  }
  for (auto& rows : groups)  // fastest first within a point, points in their variables' order
    std::stable_sort(rows.begin(), rows.end(),
                     [](const ThroughputRow* a, const ThroughputRow* b) { return point_before(a->key, b->key); });
  return groups;
}

// A bar's label: the accelerator, with the point before it when the group holds several.
std::vector<std::string> throughput_labels(const std::vector<const ThroughputRow*>& rows) {
  std::set<std::string> points, accelerators;
  for (const auto* row : rows) {
    points.insert(row->key.parameters);
    accelerators.insert(row->accelerator);
  }
  std::vector<std::string> labels;
  for (const auto* row : rows) {
    if (points.size() < 2) labels.push_back(row->accelerator);
    else if (accelerators.size() < 2) labels.push_back(row->key.parameters);
    else labels.push_back(row->key.parameters + " on " + row->accelerator);
  }
  return labels;
}

void add_throughput_panels(const Report& report, std::vector<Panel>& panels) {
  for (const auto& rows : throughput_groups(report)) {
    const auto labels = throughput_labels(rows);
    const bool one_point = labels.front() == rows.front()->accelerator;
    // With the unit: a case measured in two units has two rows of charts.
    const auto& key = rows.front()->key;
    CaseKey shown = key;
    if (!one_point) shown.parameters.clear();
    panels.push_back(heading(shown.title() + " (" + key.unit + ")"));
    panels.push_back(chart_panel(throughput_chart(rows, labels)));
    if (auto cost = cost_chart(rows, labels)) panels.push_back(chart_panel(std::move(*cost)));
  }
}

// Two columns; a wide panel takes a row of its own.
double lay_out(const std::vector<Panel>& panels, SvgWriter* svg) {
  double y = kMargin, row_height = 0;
  std::size_t column = 0;
  auto next_row = [&] {
    if (column > 0) y += row_height + kGap;
    column = 0;
    row_height = 0;
  };
  for (const auto& panel : panels) {
    if (panel.wide || column == 2) next_row();
    if (svg) {
      svg->begin_group(kMargin + static_cast<double>(column) * (kChartWidth + kGap), y);
      panel.draw(*svg);
      svg->end_group();
    }
    if (panel.wide) {
      y += panel.height;
    } else {
      row_height = std::max(row_height, panel.height);
      ++column;
    }
  }
  next_row();
  return y + kMargin;
}

}  // namespace

BarChart throughput_chart(const std::vector<const ThroughputRow*>& rows, const std::vector<std::string>& labels) {
  const auto& key = rows.front()->key;
  BarChart chart{"Throughput", key.unit + " (bar: median; whiskers: min-max)", {{"median", "#4c78a8"}}, {}};
  for (std::size_t i = 0; i < rows.size(); ++i)
    chart.bars.push_back({label_of(rows, labels, i), {{rows[i]->median, rows[i]->min, rows[i]->max}}});
  return chart;
}

std::optional<BarChart> cost_chart(const std::vector<const ThroughputRow*>& rows, const std::vector<std::string>& labels) {
  if (rows.front()->unit_costs.empty()) return std::nullopt;
  const std::string& unit = rows.front()->unit_costs.front().unit;
  BarChart chart{"Cost per " + unit, "USD per " + unit + " (whiskers: at max-min throughput)",
                 {{"on demand", "#f58518"}, {"spot", "#54a24b"}}, {}};
  bool any = false;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i]->unit_costs.empty()) continue;
    const UnitCost& cost = rows[i]->unit_costs.front();
    std::string missing = missing_cost(*rows[i]);
    any = any || cost.on_demand || cost.spot;
    chart.bars.push_back({label_of(rows, labels, i),
                          {{cost.on_demand, cost.on_demand_low, cost.on_demand_high, missing},
                           {cost.spot, cost.spot_low, cost.spot_high, missing}}});
  }
  if (!any) return std::nullopt;
  return chart;
}

std::string write_svg(const Report& report) {
  std::vector<Panel> panels;
  add_metric_panels(report, panels);
  add_throughput_panels(report, panels);
  if (panels.empty()) return "";
  SvgWriter svg(kWidth + 2 * kMargin, lay_out(panels, nullptr),
                "gkebuild report: learning curves, throughput and cost per unit of work");
  lay_out(panels, &svg);
  return svg.finish();
}

}  // namespace gkebuild::report
