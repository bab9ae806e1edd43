// xoshiro256** (Blackman and Vigna, "Scrambled linear pseudorandom number generators", 2021;
// https://prng.di.unimi.it/xoshiro256starstar.c), its state filled by splitmix64 from one
// 64-bit seed as the authors recommend. Only 64-bit integer arithmetic: the same seed gives the
// same numbers on every machine and compiler, unlike std::uniform_real_distribution.
#pragma once

#include <array>
#include <cstdint>

namespace gkebuild::search {

// splitmix64 (Steele, Lea and Flood, 2014): the next output, advancing `state`.
std::uint64_t splitmix64(std::uint64_t& state);

class Xoshiro256 {
 public:
  explicit Xoshiro256(std::uint64_t seed);
  // A generator in the given state (not all zero): for the reference's published outputs.
  static Xoshiro256 from_state(const std::array<std::uint64_t, 4>& state);
  std::uint64_t next();
  // The upper 53 bits as a double in [0, 1): every value a multiple of 2^-53.
  double unit();

 private:
  Xoshiro256() = default;
  std::array<std::uint64_t, 4> state_{};
};

}  // namespace gkebuild::search
