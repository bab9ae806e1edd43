// Robust summaries of repeated measurements: median, spread and outliers by the median
// absolute deviation (Iglewicz and Hoaglin's modified z-score), which a single wild value
// cannot drag the way it drags a mean and standard deviation.
#pragma once

#include <cstddef>
#include <vector>

namespace gkebuild::report {

// The middle value; the mean of the two middle ones for an even count. `values` non-empty.
double median(std::vector<double> values);

// median(|x - median(values)|).
double median_absolute_deviation(const std::vector<double>& values);

// 0.6745 (x - median) / MAD; infinite when MAD is 0 and x differs from the median.
double modified_z_score(double value, double median_value, double mad);

// A value is an outlier when |modified z| > 3.5; only with 3 or more values.
inline constexpr double kOutlierZ = 3.5;
inline constexpr std::size_t kOutlierMinimumSamples = 3;

// Indices of the outliers in `values`.
std::vector<std::size_t> outlier_indices(const std::vector<double>& values);

}  // namespace gkebuild::report
