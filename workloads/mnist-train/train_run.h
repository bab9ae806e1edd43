// One mnist-train run: data, model, epochs, result lines, checkpoints.
#pragma once

#include <cstdint>
#include <filesystem>

#include "workloads/common/device.h"
#include "workloads/common/precision.h"
#include "workloads/common/results.h"
#include "workloads/mnist-train/model.h"

namespace gkebuild::workloads {

struct TrainConfig {
  std::filesystem::path data;            // holds train-* and t10k-* IDX files
  std::filesystem::path save;            // checkpoint written after the last epoch (empty: none)
  std::filesystem::path load;            // weights to start from (empty: fresh weights)
  std::filesystem::path checkpoint_dir;  // a checkpoint after every epoch; resumed from (empty: none)
  ModelKind model = ModelKind::cnn;
  Precision precision = Precision::fp32;
  int epochs = 5;
  int batch = 64;
  int hidden = 128;
  float learning_rate = 0.01f;
  float momentum = 0.9f;
  std::int64_t train_limit = 0;  // use only the first N training samples (0: all)
  std::uint64_t seed = 1;
};

// Throws UsageError for values out of range.
void validate(const TrainConfig& config);

// Trains and writes per epoch "train_loss", "train_accuracy", "test_loss", "test_accuracy" and
// "throughput" (samples/s) lines; returns the exit code (130 when SIGTERM or SIGINT stopped it).
int run_training(const TrainConfig& config, const Device& device, ResultWriter& writer);

}  // namespace gkebuild::workloads
