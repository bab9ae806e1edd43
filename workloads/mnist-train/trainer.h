// Mini-batch SGD with momentum, written once against MlpOps: the loop over batches, the
// update, evaluation and the parameters' way to and from the host. A network (mlp_trainer,
// cnn_trainer) adds its forward and backward passes.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "workloads/mnist-train/model.h"
#include "workloads/mnist-train/mlp_ops.h"

namespace gkebuild::workloads {

struct EpochResult {
  double loss = 0;      // mean cross-entropy
  double accuracy = 0;  // fraction of samples classified right
  double seconds = 0;
  std::int64_t samples = 0;
  bool stopped = false;  // `stop` was set: the batches after the current one were dropped
};

class Trainer {
 public:
  virtual ~Trainer() = default;

  // One step per batch of `batch` samples along `order` (indices into `dataset`); loss and
  // accuracy are those of the batches as they were trained. Between steps it looks at
  // `stop` (if given) and returns early, stopped, when it is set.
  EpochResult train_epoch(int dataset, const std::vector<std::int32_t>& order, float learning_rate,
                          float momentum, const std::atomic<bool>* stop = nullptr);

  // Loss and accuracy over the first `count` samples, without training.
  EpochResult evaluate(int dataset, std::int64_t count);

  // The current parameters and momentum velocities, copied back to the host.
  Model model();
  std::vector<std::vector<float>> velocity();
  void set_velocity(const std::vector<std::vector<float>>& velocity);

 protected:
  // Copies `model`'s parameters onto the ops' device, with zero velocities and room for
  // their gradients.
  Trainer(MlpOps& ops, const Model& model, int batch);

  // Gathers `rows` samples, runs the network and leaves softmax cross-entropy's gradient.
  virtual void forward(int dataset, const std::int32_t* indices, int rows) = 0;
  // Fills gradient(i) for every parameter from the last forward().
  virtual void backward(int rows) = 0;

  float* parameter(std::size_t i) const { return parameters_[i]; }
  float* gradient(std::size_t i) const { return gradients_[i]; }
  // A device buffer of `per_row` floats for each of `batch` rows.
  float* activations(std::size_t per_row);

  MlpOps& ops_;
  const int batch_;

 private:
  EpochResult finish(std::chrono::steady_clock::time_point start, std::int64_t count);

  ModelShape shape_;
  std::vector<std::size_t> sizes_;
  std::vector<float*> parameters_, gradients_, velocities_;
};

// The trainer of `model`'s kind. For a CNN, `conv` does the convolutions on the same device.
class ConvOps;
std::unique_ptr<Trainer> make_trainer(MlpOps& ops, ConvOps* conv, const Model& model, int batch);

}  // namespace gkebuild::workloads
