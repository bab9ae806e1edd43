// What one conv-bench run measures, and the two paths that measure it.
#pragma once

#include <cstdint>
#include <vector>

#include "workloads/common/device.h"
#include "workloads/common/precision.h"
#include "workloads/common/results.h"
#include "workloads/conv-bench/conv_shape.h"

namespace gkebuild::workloads {

struct ConvConfig {
  std::vector<ConvShape> layers;
  std::vector<Precision> precisions{Precision::fp32};
  int repetitions = 10;
  int warmup = 2;
  std::uint64_t seed = 1;
};

// Writes the "max_error" line of the small check case; false when it is over tolerance.
bool report_conv_check(ResultWriter& writer, Precision precision, double max_error,
                       const nlohmann::json& extra);

// Writes throughput and time lines of one layer, and a summary on stderr.
void report_conv_layer(ResultWriter& writer, const ConvShape& shape, Precision precision,
                       const std::vector<double>& seconds, const nlohmann::json& extra);

int run_cpu_conv(const ConvConfig& config, const Device& device, ResultWriter& writer);

#if GKEBUILD_WITH_CUDNN
int run_cudnn_conv(const ConvConfig& config, const Device& device, ResultWriter& writer);
#endif

}  // namespace gkebuild::workloads
