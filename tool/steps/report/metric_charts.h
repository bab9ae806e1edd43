// Charts of the metrics other than throughput (loss, accuracy, time…). A metric whose lines
// carry a step (or epoch) is drawn as learning curves: one line per sweep point over the steps,
// on shared axes; one without as bars, a point per bar, on one scale. Each point has the same
// colour in every chart, and one legend names it once.
#pragma once

#include <string>
#include <vector>

#include "tool/steps/report/bar_chart.h"
#include "tool/steps/report/line_chart.h"
#include "tool/steps/report/report_model.h"

namespace gkebuild::report {

struct LegendEntry {
  std::string label;  // "hidden=16 lr=0.1"; with the accelerator when the rows have several
  std::string color;
  bool dashed = false;  // past the palette's colours
};

// The points of the metric rows in their order, each with its colour.
std::vector<LegendEntry> point_legend(const Report& report);

// One chart per metric (workload, precision, shape, metric, unit) of rows with curves.
std::vector<LineChart> curve_charts(const Report& report);

// One chart per metric of rows without curves: each point's median, whiskers min-max.
std::vector<BarChart> metric_bar_charts(const Report& report);

// Points in order variable by variable, numbers as numbers ("hidden=64" before "hidden=1024").
bool point_before(const CaseKey& a, const CaseKey& b);

// A point's colour: 12 that tell apart, then the same again dashed.
LegendEntry palette_entry(std::size_t index, std::string label);

}  // namespace gkebuild::report
