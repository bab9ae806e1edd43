#include "tool/core/search/ranges.h"

#include <algorithm>
#include <cmath>

#include "tool/core/search/random.h"
#include "tool/core/search/sobol.h"

namespace gkebuild::search {
namespace {

// Rounding can carry min + u * width up to max for u just below 1: the range stays half-open.
double below(double value, double min, double max) {
  if (value >= max) return std::nextafter(max, min);
  return std::max(value, min);
}

}  // namespace

double uniform_real(double u, double min, double max) { return below(min + u * (max - min), min, max); }

// min * (max/min)^u, which is exp(log min + u * (log max - log min)) but exact at u = 0 (the
// origin of the Sobol' sequence gives min itself, not min's neighbour).
double log_uniform(double u, double min, double max) {
  return below(min * std::exp(u * std::log(max / min)), min, max);
}

long long uniform_integer(double u, long long min, long long max) {
  const double width = static_cast<double>(max) - static_cast<double>(min) + 1;
  const auto value = static_cast<long long>(std::floor(static_cast<double>(min) + u * width));
  return std::clamp(value, min, max);
}

std::size_t uniform_choice(double u, std::size_t count) {
  const auto index = static_cast<std::size_t>(std::floor(u * static_cast<double>(count)));
  return std::min(index, count - 1);
}

std::vector<std::vector<double>> unit_points(Sampler sampler, int dimensions, std::size_t count, std::uint64_t seed) {
  std::vector<std::vector<double>> points;
  points.reserve(count);
  if (sampler == Sampler::Sobol) {
    Sobol sobol(dimensions);
    for (std::size_t i = 0; i < count; ++i) points.push_back(sobol.next());
    return points;
  }
  Xoshiro256 random(seed);
  for (std::size_t i = 0; i < count; ++i) {
    std::vector<double> point(static_cast<std::size_t>(dimensions));
    for (double& coordinate : point) coordinate = random.unit();
    points.push_back(std::move(point));
  }
  return points;
}

}  // namespace gkebuild::search
