#include "tool/steps/report/bar_chart.h"

#include <algorithm>
#include <cmath>

#include "tool/steps/report/line_chart.h"
#include "tool/steps/report/number_format.h"

namespace gkebuild::report {
namespace {

constexpr double kTitleHeight = 24;
constexpr double kLegendHeight = 18;
constexpr double kBarHeight = 16;
constexpr double kRowGap = 10;
constexpr double kAxisHeight = 42;
constexpr double kLabelWidth = 150;  // at least; wider for longer labels, up to kMaxLabelShare
constexpr double kMaxLabelShare = 0.45;
constexpr double kTitleSize = 13;
constexpr double kTitleLine = 17;
constexpr double kLabelSize = 11;
constexpr double kLabelLine = 13;
constexpr double kValueRoom = 70;  // right of the plot, for the value text
constexpr int kTicks = 5;

double legend_height(const BarChart& chart) { return chart.series.size() > 1 ? kLegendHeight : 0; }

// The title's extra lines when it wraps.
double title_extra(const BarChart& chart, double width) {
  return kTitleLine * static_cast<double>(wrap_text(chart.title, width, kTitleSize).size() - 1);
}

double label_width(const BarChart& chart, double width) {
  double longest = 0;
  for (const auto& bar : chart.bars) longest = std::max(longest, text_width(bar.label, kLabelSize) + 10);
  return std::max(kLabelWidth, std::min(longest, width * kMaxLabelShare));
}

// A label longer than the room left of the bars wraps, never runs past the picture's edge.
std::vector<std::string> label_lines(const Bar& bar, double x0) { return wrap_text(bar.label, x0 - 10, kLabelSize); }

// The bars' height (one per series), or the longest label's lines where taller; then the gap.
double row_height(const BarChart& chart, double x0) {
  std::size_t lines = 1;
  for (const auto& bar : chart.bars) lines = std::max(lines, label_lines(bar, x0).size());
  return std::max(kBarHeight * static_cast<double>(std::max<std::size_t>(chart.series.size(), 1)),
                  kLabelLine * static_cast<double>(lines)) +
         kRowGap;
}

void draw_label(SvgWriter& svg, const Bar& bar, double x0, double y, double content_height) {
  const auto lines = label_lines(bar, x0);
  double baseline = y + (content_height - kLabelLine * static_cast<double>(lines.size())) / 2 + kLabelLine - 3;
  for (const auto& line : lines) {
    svg.text(x0 - 6, baseline, line, {kLabelSize, "end"});
    baseline += kLabelLine;
  }
}

double largest(const BarChart& chart);

double smallest(const BarChart& chart) {
  double bottom = 0;
  for (const auto& bar : chart.bars)
    for (const auto& value : bar.values)
      for (const auto& figure : {value.value, value.low})
        if (figure) bottom = std::min(bottom, *figure);
  return bottom;
}

// Where values fall: bars grow from zero, rightwards, or leftwards for a negative value (a
// reward, a log-likelihood); the axis ends at round numbers either side.
struct ValueAxis {
  double x0 = 0, plot_width = 0, low = 0, high = 1, ticks = kTicks;
  double at(double value) const { return x0 + (value - low) / (high - low) * plot_width; }
};

ValueAxis value_axis(const BarChart& chart, double x0, double plot_width) {
  ValueAxis axis{x0, plot_width, 0, nice_ceiling(largest(chart)), kTicks};
  if (smallest(chart) < 0) {  // with zero inside: a tick on it
    const AxisRange range = nice_range(smallest(chart), std::max(largest(chart), 0.0));
    axis.low = range.low;
    axis.high = range.high;
    axis.ticks = std::round((range.high - range.low) / range.step);
  }
  return axis;
}

double largest(const BarChart& chart) {
  double top = 0;
  for (const auto& bar : chart.bars)
    for (const auto& value : bar.values)
      for (const auto& figure : {value.value, value.high})
        if (figure) top = std::max(top, *figure);
  return top;
}

void draw_legend(SvgWriter& svg, const BarChart& chart, double x) {
  for (const auto& series : chart.series) {
    svg.rect(x, kTitleHeight + 2, 10, 10, series.color);
    svg.text(x + 14, kTitleHeight + 11, series.name, {11});
    x += 24 + 7 * static_cast<double>(series.name.size());
  }
}

void draw_value(SvgWriter& svg, const BarValue& value, const BarSeries& series, double y, const ValueAxis& axis,
                const Bar& bar) {
  const std::string& label = bar.label;
  const double zero = axis.at(0);
  if (!value.value) {
    svg.text(zero + 4, y + kBarHeight - 4, value.missing, {11, "start", false, "#666666"});
    return;
  }
  const double end = axis.at(*value.value);
  svg.rect(std::min(zero, end), y + 2, std::max(std::abs(end - zero), 1.0), kBarHeight - 4,
           bar.color.empty() ? series.color : bar.color, label + " " + series.name + ": " + format_number(*value.value));
  double text_x = std::max(end, zero);
  if (value.low && value.high) {
    double low = axis.at(*value.low), high = axis.at(*value.high), middle = y + kBarHeight / 2;
    svg.line(low, middle, high, middle, "#111111", 1.2);
    svg.line(low, middle - 4, low, middle + 4, "#111111", 1.2);
    svg.line(high, middle - 4, high, middle + 4, "#111111", 1.2);
    text_x = std::max(text_x, high);
  }
  svg.text(text_x + 4, y + kBarHeight - 4, format_number(*value.value), {11});
}

void draw_axis(SvgWriter& svg, const BarChart& chart, double top, const ValueAxis& axis) {
  svg.line(axis.at(0), kTitleHeight, axis.at(0), top, "#444444");
  svg.line(axis.x0, top, axis.x0 + axis.plot_width, top, "#444444");
  for (int i = 0; i <= axis.ticks; ++i) {
    double value = axis.low + (axis.high - axis.low) * i / axis.ticks;
    svg.line(axis.at(value), top, axis.at(value), top + 4, "#444444");
    svg.text(axis.at(value), top + 16, format_number(std::abs(value) < 1e-12 ? 0 : value, 3), {10, "middle"});
  }
  svg.text(axis.x0 + axis.plot_width / 2, top + 34, chart.axis_label, {11, "middle"});
}

}  // namespace

double nice_ceiling(double value) {
  if (value <= 0) return 1;
  double power = std::pow(10.0, std::floor(std::log10(value)));
  for (double step : {1.0, 2.0, 5.0, 10.0})
    if (step * power >= value * (1 - 1e-12)) return step * power;
  return 10 * power;
}

double bar_chart_height(const BarChart& chart, double width) {
  return kTitleHeight + title_extra(chart, width) + legend_height(chart) +
         row_height(chart, label_width(chart, width)) * static_cast<double>(chart.bars.size()) + kAxisHeight;
}

void draw_bar_chart(SvgWriter& svg, const BarChart& chart, double width) {
  const double x0 = label_width(chart, width);
  const ValueAxis axis = value_axis(chart, x0, std::max(width - x0 - kValueRoom, 50.0));
  double y = 16;
  for (const auto& line : wrap_text(chart.title, width, kTitleSize)) {
    svg.text(0, y, line, {kTitleSize, "start", true});
    y += kTitleLine;
  }
  // Everything below the title moves down by its extra lines.
  svg.begin_group(0, title_extra(chart, width));
  if (chart.series.size() > 1) draw_legend(svg, chart, x0);
  y = kTitleHeight + legend_height(chart) + kRowGap / 2;
  const double row = row_height(chart, x0);
  // The bars of a row sit in its middle, beside its label.
  const double bars_top = (row - kRowGap - kBarHeight * static_cast<double>(chart.series.size())) / 2;
  for (const auto& bar : chart.bars) {
    draw_label(svg, bar, x0, y, row - kRowGap);
    for (std::size_t i = 0; i < chart.series.size() && i < bar.values.size(); ++i)
      draw_value(svg, bar.values[i], chart.series[i], y + bars_top + kBarHeight * static_cast<double>(i), axis, bar);
    y += row;
  }
  draw_axis(svg, chart, y - kRowGap / 2, axis);
  svg.end_group();
}

}  // namespace gkebuild::report
