#include "tool/steps/report/line_chart.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "tool/steps/report/number_format.h"

namespace gkebuild::report {
namespace {

constexpr double kTitleSize = 13;
constexpr double kTitleLine = 17;
constexpr double kPlotHeight = 200;
constexpr double kLeft = 56;   // the value axis's tick labels
constexpr double kRight = 12;
constexpr double kAxisHeight = 40;
constexpr std::size_t kMarkedPoints = 12;  // a curve this short gets a dot at each step

double title_height(const LineChart& chart, double width) {
  return kTitleLine * static_cast<double>(wrap_text(chart.title, width, kTitleSize).size()) + 18;
}

struct Extent {
  double x_low = std::numeric_limits<double>::infinity(), x_high = -x_low;
  double y_low = x_low, y_high = -x_low;
};

Extent extent_of(const LineChart& chart) {
  Extent extent;
  for (const auto& series : chart.series)
    for (const auto& line : series.lines)
      for (const auto& [x, y] : line) {
        extent.x_low = std::min(extent.x_low, x);
        extent.x_high = std::max(extent.x_high, x);
        extent.y_low = std::min(extent.y_low, y);
        extent.y_high = std::max(extent.y_high, y);
      }
  if (extent.x_low > extent.x_high) extent = {0, 1, 0, 1};
  return extent;
}

// Maps data to pixels inside the plot, whose top-left corner is (left, top).
struct Scale {
  AxisRange x, y;
  double left, top, width, height;
  double px(double value) const { return left + (value - x.low) / (x.high - x.low) * width; }
  double py(double value) const { return top + height - (value - y.low) / (y.high - y.low) * height; }
};

void draw_axes(SvgWriter& svg, const LineChart& chart, const Scale& scale) {
  const double bottom = scale.top + scale.height;
  for (double y = scale.y.low; y <= scale.y.high + scale.y.step / 2; y += scale.y.step) {
    svg.line(scale.left, scale.py(y), scale.left + scale.width, scale.py(y), "#e4e4e4");
    svg.text(scale.left - 5, scale.py(y) + 4, format_number(y, 3), {10, "end"});
  }
  for (double x = scale.x.low; x <= scale.x.high + scale.x.step / 2; x += scale.x.step) {
    svg.line(scale.px(x), bottom, scale.px(x), bottom + 4, "#444444");
    svg.text(scale.px(x), bottom + 16, format_number(x, 4), {10, "middle"});
  }
  svg.line(scale.left, scale.top, scale.left, bottom, "#444444");
  svg.line(scale.left, bottom, scale.left + scale.width, bottom, "#444444");
  svg.text(scale.left + scale.width / 2, bottom + 32, chart.x_label, {11, "middle"});
}

void draw_series(SvgWriter& svg, const LineSeries& series, const Scale& scale) {
  for (const auto& line : series.lines) {
    std::vector<std::pair<double, double>> pixels;
    for (const auto& [x, y] : line) pixels.emplace_back(scale.px(x), scale.py(y));
    if (pixels.size() > 1) svg.polyline(pixels, series.color, 2, series.dashed, series.name);
    if (pixels.size() <= kMarkedPoints)
      for (std::size_t i = 0; i < pixels.size(); ++i)
        svg.circle(pixels[i].first, pixels[i].second, 2.5, series.color,
                   series.name + " at " + format_number(line[i].first) + ": " + format_number(line[i].second));
  }
}

bool whole_steps(const LineChart& chart) {
  for (const auto& series : chart.series)
    for (const auto& line : series.lines)
      for (const auto& point : line)
        if (point.first != std::floor(point.first)) return false;
  return true;
}

}  // namespace

AxisRange nice_range(double low, double high, bool whole, int ticks) {
  if (!(high > low)) {  // one value: a range around it
    double pad = low == 0 ? 1 : std::abs(low) * 0.1;
    low -= pad;
    high += pad;
  }
  double raw = (high - low) / ticks;
  double power = std::pow(10.0, std::floor(std::log10(raw)));
  double step = 10 * power;
  for (double each : {1.0, 2.0, 5.0})
    if (each * power >= raw * (1 - 1e-9)) {
      step = each * power;
      break;
    }
  if (whole) step = std::max(step, 1.0);  // steps and epochs are counted: no tick at 1.5
  // A range that straddles few ticks may need the next step up to hold both ends.
  AxisRange range{std::floor(low / step + 1e-9) * step, std::ceil(high / step - 1e-9) * step, step};
  if (range.high <= range.low) range.high = range.low + step;
  return range;
}

double line_chart_height(const LineChart& chart, double width) {
  return title_height(chart, width) + kPlotHeight + kAxisHeight;
}

void draw_line_chart(SvgWriter& svg, const LineChart& chart, double width) {
  double y = kTitleLine - 3;
  for (const auto& line : wrap_text(chart.title, width, kTitleSize)) {
    svg.text(0, y, line, {kTitleSize, "start", true});
    y += kTitleLine;
  }
  const Extent extent = extent_of(chart);
  const double top = title_height(chart, width);
  const Scale scale{nice_range(extent.x_low, extent.x_high, whole_steps(chart)),
                    nice_range(extent.y_low, extent.y_high),
                    kLeft, top, width - kLeft - kRight, kPlotHeight};
  draw_axes(svg, chart, scale);
  svg.text(4, top - 6, chart.y_label, {10, "start", false, "#444444"});
  for (const auto& series : chart.series) draw_series(svg, series, scale);
}

}  // namespace gkebuild::report
