#include "workloads/gemm-bench/gemm_config.h"

#include <string>

#include "workloads/common/errors.h"

namespace gkebuild::workloads {

void validate(const GemmConfig& config) {
  constexpr std::int64_t kMaxSize = std::int64_t{1} << 20;
  const std::pair<const char*, std::int64_t> sizes[] = {{"m", config.m}, {"n", config.n}, {"k", config.k}};
  for (const auto& [name, size] : sizes) {
    if (size < 1 || size > kMaxSize) {
      throw UsageError(std::string("--") + name + " " + std::to_string(size) +
                       ": a matrix size must be between 1 and 1048576");
    }
  }
  if (config.repetitions < 1) throw UsageError("--reps must be at least 1");
  if (config.warmup < 0) throw UsageError("--warmup must not be negative");
  if (config.check_samples < 1) throw UsageError("--check-samples must be at least 1");
}

}  // namespace gkebuild::workloads
