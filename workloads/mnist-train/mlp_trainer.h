// The MLP's passes: h = relu(x·W1ᵀ + b1), z = h·W2ᵀ + b2, softmax cross-entropy.
#pragma once

#include "workloads/mnist-train/trainer.h"

namespace gkebuild::workloads {

class MlpTrainer final : public Trainer {
 public:
  MlpTrainer(MlpOps& ops, const Model& model, int batch);

 private:
  void forward(int dataset, const std::int32_t* indices, int rows) override;
  void backward(int rows) override;

  int inputs_, hidden_, classes_;
  float *x_, *h_, *z_, *dz_, *dh_;  // activations and their gradients, batch rows each
  int* y_;
};

}  // namespace gkebuild::workloads
