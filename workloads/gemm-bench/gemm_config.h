// What one gemm-bench run measures, shared by the CPU and CUDA paths.
#pragma once

#include <cstdint>
#include <vector>

#include "workloads/common/precision.h"

namespace gkebuild::workloads {

struct GemmConfig {
  std::int64_t m = 4096;
  std::int64_t n = 4096;
  std::int64_t k = 4096;
  std::vector<Precision> precisions{Precision::fp32};
  int repetitions = 10;
  int warmup = 2;
  int check_samples = 64;  // entries of C compared with a double-precision reference
  std::uint64_t seed = 1;
};

// Throws UsageError for sizes < 1 or > 2^20, repetitions < 1, warm-up < 0.
void validate(const GemmConfig& config);

inline double gemm_flops(const GemmConfig& c) {
  return 2.0 * static_cast<double>(c.m) * static_cast<double>(c.n) * static_cast<double>(c.k);
}

}  // namespace gkebuild::workloads
