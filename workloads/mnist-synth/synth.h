// Synthetic MNIST-like data: ten class prototypes made of random strokes, each sample one
// prototype shifted by up to two pixels, scaled in intensity and covered in noise. Learnable
// (a small MLP gets well above 90 %) but not trivially (no single pixel gives the class away).
#pragma once

#include <cstdint>

#include "workloads/mnist-train/idx.h"

namespace gkebuild::workloads {

struct SynthOptions {
  std::int64_t count = 1000;
  std::uint64_t seed = 1;  // of the samples; the prototypes are the same for every seed
  double noise = 0.5;      // standard deviation of the pixel noise, as a fraction of 255
};

MnistSet synthesize_mnist(const SynthOptions& options);

}  // namespace gkebuild::workloads
