#include "workloads/gemm-bench/gemm_check.h"

#include <cmath>
#include <random>

namespace gkebuild::workloads {

GemmCheck check_gemm_sample(const std::vector<float>& a, const std::vector<float>& b,
                            const std::vector<float>& c, std::int64_t m, std::int64_t n,
                            std::int64_t k, int samples, Precision precision, std::uint64_t seed) {
  GemmCheck check;
  check.tolerance = product_tolerance(precision);
  std::mt19937_64 rng(seed ^ 0x5eedc4ec);
  const std::int64_t total = m * n;
  const bool all = total <= samples;
  const std::int64_t count = all ? total : samples;
  for (std::int64_t s = 0; s < count; ++s) {
    const std::int64_t index =
        all ? s : static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(total));
    const std::int64_t i = index / n;
    const std::int64_t j = index % n;
    double exact = 0;
    double magnitude = 0;
    for (std::int64_t l = 0; l < k; ++l) {
      const double term = static_cast<double>(a[i * k + l]) * b[l * n + j];
      exact += term;
      magnitude += std::fabs(term);
    }
    const double error = std::fabs(c[index] - exact) / std::max(magnitude, 1e-30);
    // A NaN compares false everywhere: count it as an infinite error.
    check.max_error = std::isnan(error) ? INFINITY : std::max(check.max_error, error);
  }
  check.samples = static_cast<int>(count);
  return check;
}

}  // namespace gkebuild::workloads
