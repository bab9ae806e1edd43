// One mnist-train run: data, model, epochs, result lines, checkpoint.
#pragma once

#include <cstdint>
#include <filesystem>

#include "common/device.h"
#include "common/results.h"

namespace gkebuild::workloads {

struct TrainConfig {
  std::filesystem::path data;  // holds train-* and t10k-* IDX files
  std::filesystem::path save;  // checkpoint written after the last epoch (empty: none)
  std::filesystem::path load;  // checkpoint to start from (empty: fresh weights)
  int epochs = 5;
  int batch = 64;
  int hidden = 128;
  float learning_rate = 0.1f;
  std::int64_t train_limit = 0;  // use only the first N training samples (0: all)
  std::uint64_t seed = 1;
};

// Throws UsageError for values out of range.
void validate(const TrainConfig& config);

// Trains and writes per epoch "train_loss", "test_loss", "test_accuracy" and "throughput"
// (samples/s) lines; returns the exit code.
int run_training(const TrainConfig& config, const Device& device, ResultWriter& writer);

}  // namespace gkebuild::workloads
