#include <cstdio>

#include "workloads/common/timing.h"
#include "workloads/conv-bench/conv_runs.h"

namespace gkebuild::workloads {

bool report_conv_check(ResultWriter& writer, Precision precision, double max_error,
                       const nlohmann::json& extra) {
  const double tolerance = product_tolerance(precision);
  const bool passed = max_error <= tolerance;
  std::fprintf(stderr, "conv-bench: %s check against the direct loop: max error %.3g (tolerance %.3g) %s\n",
               to_string(precision).c_str(), max_error, tolerance, passed ? "ok" : "FAILED");
  if (!passed) return false;
  Measurement m;
  m.metric = "max_error";
  m.value = max_error;
  m.unit = "relative";
  m.precision = to_string(precision);
  m.shape = check_shape().json();
  m.extra = extra;
  m.extra["tolerance"] = tolerance;
  m.extra["passed"] = passed;
  writer.write(m);
  return true;
}

void report_conv_layer(ResultWriter& writer, const ConvShape& shape, Precision precision,
                       const std::vector<double>& seconds, const nlohmann::json& extra) {
  Measurement base;
  base.precision = to_string(precision);
  base.shape = shape.json();
  const Summary time = write_timing(writer, base, seconds, shape.flops(), extra);
  std::fprintf(stderr, "conv-bench: %-18s %s n=%lld %s (median %.3f ms of %zu)\n",
               shape.name.c_str(), base.precision.c_str(), static_cast<long long>(shape.n),
               rate_text(shape.flops() / time.median).c_str(), time.median * 1e3, time.count);
}

}  // namespace gkebuild::workloads
