// Summary of repeated timings: the median is the figure reported, min and max the spread.
#pragma once

#include <cstddef>
#include <vector>

namespace gkebuild::workloads {

struct Summary {
  double median = 0;
  double min = 0;
  double max = 0;
  double mean = 0;
  std::size_t count = 0;
};

// Throws gkebuild::Error (bad input) for an empty sample.
Summary summarize(std::vector<double> samples);

}  // namespace gkebuild::workloads
