// The report as tables and lists of text, the shape both Markdown and HTML print.
#pragma once

#include <string>
#include <vector>

#include "tool/steps/report/report_model.h"

namespace gkebuild::report {

struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

// True when every cell of the column is a figure ("12", "$0.1", "-3", "n/a", "-" for none): right-aligned.
bool numeric_column(const Table& table, std::size_t column);

// The throughput rows of each case, in report order.
std::vector<std::vector<const ThroughputRow*>> rows_by_case(const Report& report);

// One case: accelerator, values, median/min/max, wall time, GPU-hours, costs, cost per unit
// of work (a column pair per unit), speed-up, cost ratio, outliers.
Table throughput_table(const std::vector<const ThroughputRow*>& rows, const std::string& baseline);
Table metrics_table(const Report& report);
Table prices_table(const Report& report);

// "gemm-20261122-031500: cluster, created …, 3 Jobs, 9 result lines, 1 skipped"
std::vector<std::string> run_lines(const Report& report);
// "gemm-bench fp32 …, nvidia-l4: 3.1 TFLOP/s (modified z -8.2): Job J of RUN, FILE:LINE"
std::vector<std::string> outlier_lines(const Report& report);
// "FILE:LINE: reason"
std::vector<std::string> skipped_lines(const Report& report);
// "Prices: accelerator catalog of DATE, USD per node-hour of whole nodes (…). Baseline: …"
std::string basis_line(const Report& report);

}  // namespace gkebuild::report
