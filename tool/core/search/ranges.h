// A coordinate u in [0, 1) of a random or Sobol' point mapped onto a variable's range, the same
// way for both: uniform, log-uniform, integer or one of k choices.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gkebuild::search {

// min + u * (max - min), in [min, max) (a result rounded up to max is moved just below it).
double uniform_real(double u, double min, double max);
// exp(log min + u * (log max - log min)) for 0 < min < max (computed as min * (max/min)^u, exactly
// min at u = 0), in [min, max): as uniform over
// the orders of magnitude (1e-5..1e-1 puts a quarter of the points in each decade).
double log_uniform(double u, double min, double max);
// floor(min + u * (max - min + 1)), clamped to [min, max]: each integer equally likely.
long long uniform_integer(double u, long long min, long long max);
// floor(u * count), clamped to count - 1: the index of a choice.
std::size_t uniform_choice(double u, std::size_t count);

enum class Sampler { Random, Sobol };

// `count` points of the unit cube of `dimensions` (> 0) coordinates: from xoshiro256** seeded
// with `seed` (one number per coordinate, point by point), or the first `count` Sobol' points
// (`seed` unused: the unscrambled sequence is fixed). Same arguments, same points, anywhere.
std::vector<std::vector<double>> unit_points(Sampler sampler, int dimensions, std::size_t count, std::uint64_t seed);

}  // namespace gkebuild::search
