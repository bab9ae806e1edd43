// Benchmark inputs: uniform in [-1, 1) from a seed, so every device multiplies the same values.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace gkebuild::workloads {

inline std::vector<float> random_values(std::int64_t count, std::uint64_t seed) {
  std::vector<float> values(static_cast<std::size_t>(count));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (float& v : values) v = uniform(rng);
  return values;
}

}  // namespace gkebuild::workloads
