#include "workloads/common/stats.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "base/error.h"

namespace gkebuild::workloads {

Summary summarize(std::vector<double> samples) {
  if (samples.empty()) throw Error(ErrorKind::kBadInput, "no samples to summarize");
  std::sort(samples.begin(), samples.end());
  const std::size_t n = samples.size();
  Summary s;
  s.count = n;
  s.min = samples.front();
  s.max = samples.back();
  s.median = n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(n);
  return s;
}

}  // namespace gkebuild::workloads
