#include "gemm-bench/gemm_report.h"

#include <cstdio>

#include "common/stats.h"

namespace gkebuild::workloads {

bool report_gemm(ResultWriter& writer, const GemmConfig& config, Precision precision,
                 const std::vector<double>& seconds, const GemmCheck& check,
                 const nlohmann::json& extra) {
  const Summary time = summarize(seconds);
  const double flops = gemm_flops(config);
  Measurement m;
  m.precision = to_string(precision);
  m.shape = {{"m", config.m}, {"n", config.n}, {"k", config.k}};
  m.repetitions = static_cast<int>(time.count);

  m.metric = "max_error";
  m.value = check.max_error;
  m.unit = "relative";
  m.extra = {{"samples", check.samples}, {"tolerance", check.tolerance}, {"passed", check.passed()}};
  if (check.passed()) writer.write(m);
  std::fprintf(stderr, "gemm-bench: %s %lldx%lldx%lld check: max error %.3g (tolerance %.3g) %s\n",
               m.precision.c_str(), static_cast<long long>(config.m),
               static_cast<long long>(config.n), static_cast<long long>(config.k),
               check.max_error, check.tolerance, check.passed() ? "ok" : "FAILED");
  if (!check.passed()) return false;

  m.metric = "throughput";
  m.value = flops / time.median / 1e12;
  m.unit = "TFLOP/s";
  m.extra = extra;
  m.extra["min"] = flops / time.max / 1e12;
  m.extra["max"] = flops / time.min / 1e12;
  writer.write(m);

  m.metric = "time";
  m.value = time.median * 1e3;
  m.unit = "ms";
  m.extra = {{"min", time.min * 1e3}, {"max", time.max * 1e3}, {"mean", time.mean * 1e3}};
  writer.write(m);
  std::fprintf(stderr, "gemm-bench: %s %.3f TFLOP/s (median of %zu, %.3f ms; spread %.3f-%.3f ms)\n",
               to_string(precision).c_str(), flops / time.median / 1e12, time.count,
               time.median * 1e3, time.min * 1e3, time.max * 1e3);
  return true;
}

}  // namespace gkebuild::workloads
