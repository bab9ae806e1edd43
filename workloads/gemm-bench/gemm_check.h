// Checks a sample of a product against a double-precision reference, so a benchmark never
// reports the speed of a wrong result.
#pragma once

#include <cstdint>
#include <vector>

#include "workloads/common/precision.h"

namespace gkebuild::workloads {

struct GemmCheck {
  double max_error = 0;  // max |c - ref| / Σ|a·b| over the sampled entries
  double tolerance = 0;
  int samples = 0;
  bool passed() const { return max_error <= tolerance; }
};

// Row-major A (m×k), B (k×n), C (m×n); samples up to `samples` entries of C spread over
// the matrix (all of them when it has fewer).
GemmCheck check_gemm_sample(const std::vector<float>& a, const std::vector<float>& b,
                            const std::vector<float>& c, std::int64_t m, std::int64_t n,
                            std::int64_t k, int samples, Precision precision, std::uint64_t seed);

}  // namespace gkebuild::workloads
