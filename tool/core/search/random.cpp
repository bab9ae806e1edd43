#include "tool/core/search/random.h"

namespace gkebuild::search {
namespace {

std::uint64_t rotate_left(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

Xoshiro256::Xoshiro256(std::uint64_t seed) {
  for (auto& word : state_) word = splitmix64(seed);
}

Xoshiro256 Xoshiro256::from_state(const std::array<std::uint64_t, 4>& state) {
  Xoshiro256 generator;
  generator.state_ = state;
  return generator;
}

std::uint64_t Xoshiro256::next() {
  const std::uint64_t result = rotate_left(state_[1] * 5, 7) * 9;
  const std::uint64_t t = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = rotate_left(state_[3], 45);
  return result;
}

double Xoshiro256::unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

}  // namespace gkebuild::search
