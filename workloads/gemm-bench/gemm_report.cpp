#include "workloads/gemm-bench/gemm_report.h"

#include <cstdio>

#include "workloads/common/timing.h"

namespace gkebuild::workloads {

bool report_gemm(ResultWriter& writer, const GemmConfig& config, Precision precision,
                 const std::vector<double>& seconds, const GemmCheck& check,
                 const nlohmann::json& extra) {
  const double flops = gemm_flops(config);
  Measurement m;
  m.precision = to_string(precision);
  m.shape = {{"m", config.m}, {"n", config.n}, {"k", config.k}};
  m.repetitions = static_cast<int>(seconds.size());

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

  const Summary time = write_timing(writer, m, seconds, flops, extra);
  std::fprintf(stderr, "gemm-bench: %s %s (median of %zu, %.3f ms; spread %.3f-%.3f ms)\n",
               to_string(precision).c_str(), rate_text(flops / time.median).c_str(), time.count,
               time.median * 1e3, time.min * 1e3, time.max * 1e3);
  return true;
}

}  // namespace gkebuild::workloads
