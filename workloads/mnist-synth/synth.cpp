#include "workloads/mnist-synth/synth.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <random>

namespace gkebuild::workloads {
namespace {

constexpr int kSide = 28;
using Image = std::array<float, kSide * kSide>;

// Three thick strokes between random points of the central 20×20 area, drawn from a
// class-only seed so that train and test sets share the prototypes.
Image prototype(int label) {
  std::mt19937 rng(0x6b65u + static_cast<unsigned>(label) * 7919u);
  std::uniform_real_distribution<float> coordinate(5.0f, 22.0f);
  Image image{};
  for (int stroke = 0; stroke < 3; ++stroke) {
    const float x0 = coordinate(rng), y0 = coordinate(rng), x1 = coordinate(rng), y1 = coordinate(rng);
    for (int step = 0; step <= 40; ++step) {
      const float t = step / 40.0f;
      const float cx = x0 + t * (x1 - x0), cy = y0 + t * (y1 - y0);
      for (int y = 0; y < kSide; ++y) {
        for (int x = 0; x < kSide; ++x) {
          const float d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy);
          if (d2 < 2.25f) image[y * kSide + x] = 1.0f;
        }
      }
    }
  }
  return image;
}

}  // namespace

MnistSet synthesize_mnist(const SynthOptions& options) {
  std::array<Image, kMnistClasses> prototypes;
  for (int label = 0; label < kMnistClasses; ++label) prototypes[label] = prototype(label);
  std::mt19937_64 rng(options.seed);
  std::uniform_int_distribution<int> label_of(0, kMnistClasses - 1);
  std::uniform_int_distribution<int> shift(-2, 2);
  std::uniform_real_distribution<float> intensity(0.6f, 1.0f);
  std::normal_distribution<float> noise(0.0f, static_cast<float>(options.noise));
  MnistSet set;
  set.rows = kSide;
  set.cols = kSide;
  set.pixels.resize(static_cast<std::size_t>(options.count) * kSide * kSide);
  set.labels.resize(static_cast<std::size_t>(options.count));
  for (std::int64_t i = 0; i < options.count; ++i) {
    const int label = label_of(rng);
    const int dx = shift(rng), dy = shift(rng);
    const float scale = intensity(rng);
    set.labels[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(label);
    std::uint8_t* out = set.pixels.data() + i * kSide * kSide;
    for (int y = 0; y < kSide; ++y) {
      for (int x = 0; x < kSide; ++x) {
        const int sx = x - dx, sy = y - dy;
        const bool inside = sx >= 0 && sx < kSide && sy >= 0 && sy < kSide;
        const float clean = inside ? scale * prototypes[label][sy * kSide + sx] : 0.0f;
        const float value = std::clamp(clean + noise(rng), 0.0f, 1.0f);
        out[y * kSide + x] = static_cast<std::uint8_t>(std::lround(value * 255.0f));
      }
    }
  }
  return set;
}

}  // namespace gkebuild::workloads
