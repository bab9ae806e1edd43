// The networks mnist-train trains, both ending in softmax cross-entropy over the classes:
//   mlp: inputs → hidden (ReLU) → classes
//   cnn: 1×H×W → conv k×k, conv1 filters, pad k/2 → ReLU → max-pool 2×2
//              → conv k×k, conv2 filters, no pad → ReLU → max-pool 2×2 → flatten
//              → hidden (ReLU) → classes                    (LeNet-style; 28×28: 8·28·28 → 8·14·14 →
//                                                             16·10·10 → 16·5·5 = 400 → 128 → 10)
// Parameters live on the host here; trainers copy them to their device.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gkebuild::workloads {

enum class ModelKind { mlp, cnn };

std::string to_string(ModelKind kind);
// Throws UsageError for anything but "mlp" and "cnn".
ModelKind parse_model_kind(const std::string& text);

struct ModelShape {
  ModelKind kind = ModelKind::cnn;
  int height = 28, width = 28;  // image size; the MLP's inputs are height × width
  int hidden = 128;
  int classes = 10;
  int conv1 = 8, conv2 = 16, kernel = 5;  // CNN only

  int inputs() const { return height * width; }
  // CNN: the image after conv1 (same size) and pool1, and after conv2 and pool2.
  int pool1_height() const { return height / 2; }
  int pool1_width() const { return width / 2; }
  int conv2_height() const { return pool1_height() - kernel + 1; }
  int conv2_width() const { return pool1_width() - kernel + 1; }
  int flat() const { return conv2 * (conv2_height() / 2) * (conv2_width() / 2); }  // after pool2

  bool operator==(const ModelShape&) const = default;
};

// "cnn 1x28x28 c8k5p2 pool2 c16k5 pool2 400 128 10": for messages, and the README's notation.
std::string describe(const ModelShape& shape);
// The result lines' shape fields of the model.
nlohmann::json shape_json(const ModelShape& shape);
// Throws UsageError when the images are too small for the CNN or a size is out of range.
void validate(const ModelShape& shape);

// Sizes of the parameter tensors, in the order trainers and checkpoints keep them:
//   mlp: w1 (hidden × inputs), b1, w2 (classes × hidden), b2
//   cnn: conv1 w (conv1 × 1 × k × k), b, conv2 w (conv2 × conv1 × k × k), b,
//        fc1 w (hidden × flat), b, fc2 w (classes × hidden), b
std::vector<std::size_t> parameter_sizes(const ModelShape& shape);

struct Model {
  ModelShape shape;
  std::vector<std::vector<float>> parameters;  // as parameter_sizes()
};

// He-uniform weights (limit √(6 / fan-in)) from `seed`, zero biases.
Model init_model(const ModelShape& shape, std::uint64_t seed);

}  // namespace gkebuild::workloads
