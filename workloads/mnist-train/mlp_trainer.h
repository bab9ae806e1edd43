// Mini-batch SGD on the MLP, written once against MlpOps: forward, softmax cross-entropy,
// backward, update.
#pragma once

#include <chrono>
#include <cstdint>
#include <random>

#include "mnist-train/mlp_model.h"
#include "mnist-train/mlp_ops.h"

namespace gkebuild::workloads {

struct EpochResult {
  double loss = 0;      // mean cross-entropy
  double accuracy = 0;  // fraction of samples classified right
  double seconds = 0;
  std::int64_t samples = 0;
};

class MlpTrainer {
 public:
  // Copies `model` onto the ops' device; batches hold up to `batch` samples.
  MlpTrainer(MlpOps& ops, const MlpModel& model, int batch);

  // One pass over `count` samples of `dataset` in an order drawn from `rng`; loss and accuracy
  // are those of the batches as they were trained.
  EpochResult train_epoch(int dataset, std::int64_t count, std::mt19937_64& rng, float learning_rate);

  // Loss and accuracy over the first `count` samples, without training.
  EpochResult evaluate(int dataset, std::int64_t count);

  // The current parameters, copied back to the host.
  MlpModel model();

 private:
  void forward(int dataset, const std::int32_t* indices, int rows);
  void backward_and_update(int rows, float learning_rate);
  EpochResult finish(std::chrono::steady_clock::time_point start, std::int64_t count);

  MlpOps& ops_;
  int inputs_, hidden_, classes_, batch_;
  float *w1_, *b1_, *w2_, *b2_;       // parameters
  float *gw1_, *gb1_, *gw2_, *gb2_;   // their gradients
  float *x_, *h_, *z_, *dz_, *dh_;    // activations and their gradients, batch rows each
  int* y_;
};

}  // namespace gkebuild::workloads
