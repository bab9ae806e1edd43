// A 2-D convolution layer in NCHW: input N×C×H×W, filter K×C×R×S, output N×K×P×Q.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gkebuild::workloads {

struct ConvShape {
  std::string name;
  std::int64_t n = 1, c = 1, h = 1, w = 1;  // input
  std::int64_t k = 1, r = 1, s = 1;         // filters
  std::int64_t stride = 1, pad = 0;

  std::int64_t p() const { return (h + 2 * pad - r) / stride + 1; }
  std::int64_t q() const { return (w + 2 * pad - s) / stride + 1; }
  std::int64_t input_size() const { return n * c * h * w; }
  std::int64_t filter_size() const { return k * c * r * s; }
  std::int64_t output_size() const { return n * k * p() * q(); }
  double flops() const { return 2.0 * static_cast<double>(output_size()) * static_cast<double>(c * r * s); }
  nlohmann::json json() const;
};

// Distinct convolution layers of ResNet-50 (stem, bottleneck 1×1 and 3×3, strided), batch n.
std::vector<ConvShape> resnet50_layers(std::int64_t batch);

// The small case every run checks against the direct loop: odd sizes, stride 2, padding.
ConvShape check_shape();

// Throws UsageError for sizes < 1, an empty output, or more than 2^31 elements a tensor.
void validate(const ConvShape& shape);

}  // namespace gkebuild::workloads
