#include "tool/steps/report/statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gkebuild::report {

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double median_absolute_deviation(const std::vector<double>& values) {
  double middle = median(values);
  std::vector<double> deviations;
  deviations.reserve(values.size());
  for (double value : values) deviations.push_back(std::fabs(value - middle));
  return median(deviations);
}

double modified_z_score(double value, double median_value, double mad) {
  double deviation = value - median_value;
  if (mad == 0) {
    if (deviation == 0) return 0;
    return deviation > 0 ? std::numeric_limits<double>::infinity()
                         : -std::numeric_limits<double>::infinity();
  }
  return 0.6745 * deviation / mad;
}

std::vector<std::size_t> outlier_indices(const std::vector<double>& values) {
  std::vector<std::size_t> outliers;
  if (values.size() < kOutlierMinimumSamples) return outliers;
  double middle = median(values);
  double mad = median_absolute_deviation(values);
  for (std::size_t i = 0; i < values.size(); ++i)
    if (std::fabs(modified_z_score(values[i], middle, mad)) > kOutlierZ) outliers.push_back(i);
  return outliers;
}

}  // namespace gkebuild::report
