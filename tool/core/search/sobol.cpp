#include "tool/core/search/sobol.h"

#include <stdexcept>
#include <string>

#include "base/error.h"

namespace gkebuild::search {
namespace {

// Rows d = 2..21 of new-joe-kuo-6.21201 (S. Joe and F. Y. Kuo, "Constructing Sobol sequences
// with better two-dimensional projections", SIAM J. Sci. Comput. 30, 2635-2654, 2008;
// https://web.maths.unsw.edu.au/~fkuo/sobol/), as written there: d, the degree s of the
// primitive polynomial, its inner coefficients a (bit s-2 is the coefficient of x^(s-1)), and
// the initial direction numbers m_1..m_s. Checked against the same table as SciPy 1.10 ships it
// (scipy/stats/_sobol_direction_numbers.npz, `poly` and `vinit`).
struct Row {
  int d;
  int s;
  std::uint32_t a;
  std::uint32_t m[7];
};
constexpr Row kJoeKuo[] = {
    {2, 1, 0, {1}},
    {3, 2, 1, {1, 3}},
    {4, 3, 1, {1, 3, 1}},
    {5, 3, 2, {1, 1, 1}},
    {6, 4, 1, {1, 1, 3, 3}},
    {7, 4, 4, {1, 3, 5, 13}},
    {8, 5, 2, {1, 1, 5, 5, 17}},
    {9, 5, 4, {1, 1, 5, 5, 5}},
    {10, 5, 7, {1, 1, 7, 11, 19}},
    {11, 5, 11, {1, 1, 5, 1, 1}},
    {12, 5, 13, {1, 1, 1, 3, 11}},
    {13, 5, 14, {1, 3, 5, 5, 31}},
    {14, 6, 1, {1, 3, 3, 9, 7, 49}},
    {15, 6, 13, {1, 1, 1, 15, 21, 21}},
    {16, 6, 16, {1, 3, 1, 13, 27, 49}},
    {17, 6, 19, {1, 1, 1, 15, 7, 5}},
    {18, 6, 22, {1, 3, 1, 15, 13, 25}},
    {19, 6, 25, {1, 1, 5, 5, 19, 61}},
    {20, 7, 1, {1, 3, 7, 11, 23, 15, 103}},
    {21, 7, 4, {1, 3, 7, 13, 13, 15, 69}},
};
static_assert(sizeof kJoeKuo / sizeof kJoeKuo[0] == kSobolMaxDimensions - 1);

// v_i = m_i * 2^(bits-i) for the first s, then Bratley and Fox's recurrence (Joe and Kuo's
// notes, eq. 5): v_i = a_1 v_(i-1) ^ ... ^ a_(s-1) v_(i-s+1) ^ v_(i-s) ^ (v_(i-s) >> s).
std::vector<std::uint32_t> directions(const Row& row) {
  std::vector<std::uint32_t> v(kSobolBits);
  const int s = row.s;
  for (int i = 0; i < kSobolBits; ++i) {
    if (i < s) {
      v[i] = row.m[i] << (kSobolBits - 1 - i);
      continue;
    }
    v[i] = v[i - s] ^ (v[i - s] >> s);
    for (int k = 1; k < s; ++k)
      if ((row.a >> (s - 1 - k)) & 1U) v[i] ^= v[i - k];
  }
  return v;
}

// The position of the lowest zero bit of n (0 for an even n).
int lowest_zero_bit(std::uint64_t n) {
  int position = 0;
  while (n & 1U) {
    n >>= 1;
    ++position;
  }
  return position;
}

}  // namespace

Sobol::Sobol(int dimensions) {
  if (dimensions < 1 || dimensions > kSobolMaxDimensions)
    throw Error(ErrorKind::kCannotRun, "Sobol: 1 to " + std::to_string(kSobolMaxDimensions) + " dimensions");
  std::vector<std::uint32_t> first(kSobolBits);  // every m_i = 1: van der Corput
  for (int i = 0; i < kSobolBits; ++i) first[i] = 1U << (kSobolBits - 1 - i);
  directions_.push_back(std::move(first));
  for (int d = 1; d < dimensions; ++d) directions_.push_back(directions(kJoeKuo[d - 1]));
  current_.assign(static_cast<std::size_t>(dimensions), 0);
}

// Gray-code order: point n+1 is point n with the direction number of n's lowest zero bit
// XOR-ed in, so point n is the XOR of the direction numbers of the bits of n ^ (n >> 1).
std::vector<double> Sobol::next() {
  if (index_ >= (std::uint64_t{1} << kSobolBits)) throw Error(ErrorKind::kCannotRun, "Sobol: at most 2^30 points");
  std::vector<double> point(current_.size());
  for (std::size_t j = 0; j < current_.size(); ++j) point[j] = static_cast<double>(current_[j]) * 0x1.0p-30;
  const int bit = lowest_zero_bit(index_);
  if (bit < kSobolBits)
    for (std::size_t j = 0; j < current_.size(); ++j) current_[j] ^= directions_[j][static_cast<std::size_t>(bit)];
  ++index_;
  return point;
}

}  // namespace gkebuild::search
