// gemm-bench on the CPU: the blocked multi-threaded SGEMM of common/, FP32 only.
#include <unistd.h>

#include <cstdio>

#include "base/exit_codes.h"
#include "workloads/common/cpu_gemm.h"
#include "workloads/common/errors.h"
#include "workloads/common/random_values.h"
#include "workloads/common/timing.h"
#include "workloads/gemm-bench/gemm_check.h"
#include "workloads/gemm-bench/gemm_report.h"
#include "workloads/gemm-bench/gemm_runs.h"

namespace gkebuild::workloads {
namespace {

void require_host_memory(const GemmConfig& c) {
  const double bytes = 4.0 * (static_cast<double>(c.m) * c.k + static_cast<double>(c.k) * c.n +
                              static_cast<double>(c.m) * c.n);
  const double host = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGESIZE);
  if (bytes > host * 0.8) {
    char text[160];
    std::snprintf(text, sizeof(text), "%lldx%lldx%lld needs %.2f GiB of host memory; this host has %.2f GiB",
                  static_cast<long long>(c.m), static_cast<long long>(c.n),
                  static_cast<long long>(c.k), bytes / 1073741824.0, host / 1073741824.0);
    throw RunError(text);
  }
}

}  // namespace

int run_cpu_gemm(const GemmConfig& config, const Device& device, ResultWriter& writer) {
  for (Precision p : config.precisions) {
    if (p != Precision::fp32) {
      throw UsageError("precision " + to_string(p) +
                       " needs a CUDA device; the CPU path computes fp32 only");
    }
  }
  require_host_memory(config);
  const auto a = random_values(config.m * config.k, config.seed);
  const auto b = random_values(config.k * config.n, config.seed + 1);
  std::vector<float> c(static_cast<std::size_t>(config.m * config.n));
  auto multiply = [&] {
    cpu_sgemm(Transpose::no, Transpose::no, config.m, config.n, config.k, 1.0f, a.data(),
              config.k, b.data(), config.n, 0.0f, c.data(), config.n, device.threads);
  };
  const std::vector<double> seconds = time_on_host(config.warmup, config.repetitions, multiply);
  const GemmCheck check = check_gemm_sample(a, b, c, config.m, config.n, config.k,
                                            config.check_samples, Precision::fp32, config.seed);
  const nlohmann::json extra = {{"kernel", cpu_sgemm_kernel_name()}, {"threads", device.threads}};
  return report_gemm(writer, config, Precision::fp32, seconds, check, extra) ? cli::kExitSuccess
                                                                            : cli::kExitFailure;
}

}  // namespace gkebuild::workloads
