// The report's charts, one SVG document: the metrics' learning curves (and bars for metrics
// without steps) under one legend of the points; then for each case, throughput by
// accelerator (median, whiskers min-max) beside the cost per unit of work on demand and on
// spot (whiskers at max and min throughput). Cases that differ only by sweep point share one
// chart, a bar per point, on one scale.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tool/steps/report/bar_chart.h"
#include "tool/steps/report/report_model.h"

namespace gkebuild::report {

// `labels`: one per row; the accelerators when empty.
BarChart throughput_chart(const std::vector<const ThroughputRow*>& rows, const std::vector<std::string>& labels = {});
// Per the case's first unit of work; none where no row has a cost (an unknown unit, a CPU run,
// accelerators the catalog does not price): no panel of "n/a" alone.
std::optional<BarChart> cost_chart(const std::vector<const ThroughputRow*>& rows,
                                   const std::vector<std::string>& labels = {});

// One SVG document with every chart; "" when the report has no rows at all.
std::string write_svg(const Report& report);

}  // namespace gkebuild::report
