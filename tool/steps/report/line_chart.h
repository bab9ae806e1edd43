// Line charts: values over steps, one line per series on shared axes, with a value axis that
// starts near the data (a loss from 2.3 to 0.2 fills the plot) and the step axis below.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "tool/steps/report/svg_writer.h"

namespace gkebuild::report {

struct LineSeries {
  std::string name;   // the tooltip of its lines: "hidden=16 lr=0.1"
  std::string color;
  bool dashed = false;
  // Each a line of its own (a point's Jobs: one per run or seed): (step, value), by step.
  std::vector<std::vector<std::pair<double, double>>> lines;
};

struct LineChart {
  std::string title;   // wrapped to the chart's width
  std::string x_label;  // "step" or "epoch"
  std::string y_label;  // with the unit
  std::vector<LineSeries> series;
};

double line_chart_height(const LineChart& chart, double width);

// Draws `chart` `width` pixels wide with its top-left corner at the writer's origin.
void draw_line_chart(SvgWriter& svg, const LineChart& chart, double width);

// Axis ends and tick step that hold [low, high]: multiples of 1, 2 or 5 times a power of ten
// (`whole`: a step of at least 1, for an axis of steps or epochs).
struct AxisRange {
  double low = 0, high = 1, step = 0.2;
};
AxisRange nice_range(double low, double high, bool whole = false, int ticks = 5);

}  // namespace gkebuild::report
