// The network mnist-train trains: a multi-layer perceptron, inputs → hidden (ReLU) → classes,
// softmax cross-entropy. Parameters live on the host here; trainers copy them to their device.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

namespace gkebuild::workloads {

struct MlpModel {
  int inputs = 0, hidden = 0, classes = 0;
  std::vector<float> w1, b1;  // hidden × inputs, hidden
  std::vector<float> w2, b2;  // classes × hidden, classes
};

// He-uniform weights from `seed`, zero biases.
MlpModel init_mlp(int inputs, int hidden, int classes, std::uint64_t seed);

// A checkpoint: magic "GKEMLP01", three little-endian int32 sizes, then w1, b1, w2, b2 as
// float32. Saving writes a temporary file and renames it; loading checks sizes (UsageError).
void save_checkpoint(const MlpModel& model, const std::filesystem::path& path);
MlpModel load_checkpoint(const std::filesystem::path& path);

}  // namespace gkebuild::workloads
