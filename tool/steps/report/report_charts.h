// The report's charts: for each case, throughput by accelerator (median, whiskers min-max)
// beside the cost per unit of work on demand and on spot (whiskers at max and min throughput).
#pragma once

#include <string>
#include <vector>

#include "tool/steps/report/bar_chart.h"
#include "tool/steps/report/report_model.h"

namespace gkebuild::report {

BarChart throughput_chart(const std::vector<const ThroughputRow*>& rows);
// Per the case's first unit of work; a case without one (an unknown unit) has no cost chart.
std::optional<BarChart> cost_chart(const std::vector<const ThroughputRow*>& rows);

// One SVG document with every case's charts; "" when the report has no throughput.
std::string write_svg(const Report& report);

}  // namespace gkebuild::report
