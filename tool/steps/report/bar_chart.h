// Horizontal bar charts with error bars (whiskers from a low to a high value), one row per
// label and one bar per series in it, with a value axis, tick labels and the unit.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tool/steps/report/svg_writer.h"

namespace gkebuild::report {

struct BarSeries {
  std::string name;
  std::string color;
};

struct BarValue {
  std::optional<double> value;  // nullopt: drawn as the text `missing`
  std::optional<double> low, high;
  std::string missing = "n/a";
};

struct Bar {
  std::string label;
  std::vector<BarValue> values;  // one per series
  std::string color;             // "": the series' colour; a point's colour, as in its legend
};

struct BarChart {
  std::string title;
  std::string axis_label;  // with the unit: "TFLOP/s (median; whiskers: min-max)"
  std::vector<BarSeries> series;
  std::vector<Bar> bars;
};

// With the title wrapped to `width`.
double bar_chart_height(const BarChart& chart, double width);

// Draws `chart` `width` pixels wide with its top-left corner at the writer's origin.
void draw_bar_chart(SvgWriter& svg, const BarChart& chart, double width);

// 1, 2 or 5 times a power of ten, at least `value`; the axis ends there.
double nice_ceiling(double value);

}  // namespace gkebuild::report
