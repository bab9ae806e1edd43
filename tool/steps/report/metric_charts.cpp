#include "tool/steps/report/metric_charts.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

namespace gkebuild::report {
namespace {

constexpr const char* kPalette[] = {"#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#b279a2",
                                    "#d6a800", "#9d755d", "#ff9da6", "#1f3b73", "#8c6d31", "#7f7f7f"};

bool several_accelerators(const Report& report) {
  std::set<std::string> names;
  for (const auto& row : report.metrics) names.insert(row.accelerator);
  return names.size() > 1;
}

// The point's variables once, and the accelerator where the rows ran on more than one.
std::string point_label(const MetricRow& row, bool with_accelerator) {
  if (row.key.parameters.empty()) return row.accelerator;
  return with_accelerator ? row.key.parameters + " on " + row.accelerator : row.key.parameters;
}

// The case of a chart: the row's key without its point.
CaseKey chart_key(const MetricRow& row) {
  CaseKey key = row.key;
  key.parameters.clear();
  key.point.clear();
  return key;
}

std::string chart_title(const CaseKey& key) { return key.title() + ": " + key.metric; }

// The x axis's name: what the lines carry.
std::string step_name(const std::vector<const MetricRow*>& rows) {
  for (const auto* row : rows)
    if (!row->step_name.empty()) return row->step_name;
  return "step";
}

// Two values of a variable: as numbers where both are ("64" before "1024"), else as text.
bool value_less(const std::string& a, const std::string& b) {
  char* a_end = nullptr;
  char* b_end = nullptr;
  const double x = std::strtod(a.c_str(), &a_end), y = std::strtod(b.c_str(), &b_end);
  if (!a.empty() && !b.empty() && *a_end == '\0' && *b_end == '\0' && x != y) return x < y;
  return a < b;
}

bool point_less(const MetricRow* a, const MetricRow* b) {
  if (a->key.point != b->key.point) return point_before(a->key, b->key);
  return a->accelerator < b->accelerator;
}

std::vector<const MetricRow*> rows_by_point(const Report& report) {
  std::vector<const MetricRow*> rows;
  for (const auto& row : report.metrics) rows.push_back(&row);
  std::stable_sort(rows.begin(), rows.end(), point_less);
  return rows;
}

}  // namespace

bool point_before(const CaseKey& a, const CaseKey& b) {
  const auto& p = a.point;
  const auto& q = b.point;
  for (std::size_t i = 0; i < std::min(p.size(), q.size()); ++i) {
    if (p[i].first != q[i].first) return p[i].first < q[i].first;
    if (p[i].second != q[i].second) return value_less(p[i].second, q[i].second);
  }
  return p.size() < q.size();
}

LegendEntry palette_entry(std::size_t index, std::string label) {
  constexpr std::size_t count = std::size(kPalette);
  return {std::move(label), kPalette[index % count], index >= count};
}

std::vector<LegendEntry> point_legend(const Report& report) {
  const bool with_accelerator = several_accelerators(report);
  std::vector<LegendEntry> legend;
  std::set<std::string> seen;
  for (const auto* row : rows_by_point(report)) {
    std::string label = point_label(*row, with_accelerator);
    if (seen.insert(label).second) legend.push_back(palette_entry(legend.size(), std::move(label)));
  }
  return legend;
}

namespace {

// Rows by chart, the charts in the order of their cases (workload, …, metric), each chart's rows
// in the order of their points; `curves` picks rows with or without.
std::vector<std::vector<const MetricRow*>> rows_by_chart(const Report& report, bool curves) {
  std::map<CaseKey, std::vector<const MetricRow*>> by_key;
  for (const auto* row : rows_by_point(report))
    if (row->curves.empty() != curves) by_key[chart_key(*row)].push_back(row);
  std::vector<std::vector<const MetricRow*>> charts;
  for (auto& [key, rows] : by_key) charts.push_back(std::move(rows));
  return charts;
}

}  // namespace

std::vector<LineChart> curve_charts(const Report& report) {
  const bool with_accelerator = several_accelerators(report);
  std::map<std::string, LegendEntry> colours;
  for (auto& entry : point_legend(report)) colours.emplace(entry.label, entry);
  std::vector<LineChart> charts;
  for (const auto& rows : rows_by_chart(report, true)) {
    const CaseKey key = chart_key(*rows.front());
    LineChart chart{chart_title(key), step_name(rows), key.unit.empty() ? key.metric : key.metric + " (" + key.unit + ")", {}};
    for (const auto* row : rows) {
      const LegendEntry& colour = colours.at(point_label(*row, with_accelerator));
      LineSeries series{colour.label, colour.color, colour.dashed, {}};
      for (const auto& curve : row->curves) series.lines.push_back(curve.points);
      chart.series.push_back(std::move(series));
    }
    charts.push_back(std::move(chart));
  }
  return charts;
}

std::vector<BarChart> metric_bar_charts(const Report& report) {
  const bool with_accelerator = several_accelerators(report);
  // Where curves (and so the legend) are drawn, each bar takes its point's colour.
  std::map<std::string, std::string> colours;
  if (!rows_by_chart(report, true).empty())
    for (const auto& entry : point_legend(report)) colours.emplace(entry.label, entry.color);
  std::vector<BarChart> charts;
  for (const auto& rows : rows_by_chart(report, false)) {
    const CaseKey key = chart_key(*rows.front());
    BarChart chart{chart_title(key), key.unit + " (bar: median; whiskers: min-max)", {{"median", "#4c78a8"}}, {}};
    for (const auto* row : rows) {
      BarValue value{row->median, std::nullopt, std::nullopt};
      if (row->max > row->min) value = {row->median, row->min, row->max};
      std::string label = point_label(*row, with_accelerator);
      auto colour = colours.find(label);
      chart.bars.push_back({label, {value}, colour == colours.end() ? "" : colour->second});
    }
    charts.push_back(std::move(chart));
  }
  return charts;
}

}  // namespace gkebuild::report
