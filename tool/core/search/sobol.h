// The unscrambled Sobol' sequence with Joe and Kuo's direction numbers (new-joe-kuo-6.21201),
// in Gray-code order and starting at the origin, as SciPy's
// scipy.stats.qmc.Sobol(d, scramble=False).random(n) gives it (the first n points, none skipped).
#pragma once

#include <cstdint>
#include <vector>

namespace gkebuild::search {

// Dimension 1 (van der Corput) and the first 20 rows of Joe and Kuo's table.
inline constexpr int kSobolMaxDimensions = 21;
// Bits of each coordinate (SciPy's default): at most 2^30 points.
inline constexpr int kSobolBits = 30;

class Sobol {
 public:
  explicit Sobol(int dimensions);  // 1..kSobolMaxDimensions, else gkebuild::Error
  // The next point, each coordinate a multiple of 2^-30 in [0, 1); the first is the origin.
  std::vector<double> next();

 private:
  std::vector<std::vector<std::uint32_t>> directions_;  // [dimension][bit]
  std::vector<std::uint32_t> current_;
  std::uint64_t index_ = 0;
};

}  // namespace gkebuild::search
