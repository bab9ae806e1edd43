// The CNN's passes (model.h): two convolutions with bias, ReLU and 2×2 max pooling on
// ConvOps, then two fully connected layers and softmax cross-entropy on MlpOps.
#pragma once

#include "workloads/mnist-train/conv_ops.h"
#include "workloads/mnist-train/trainer.h"

namespace gkebuild::workloads {

class CnnTrainer final : public Trainer {
 public:
  CnnTrainer(MlpOps& ops, ConvOps& conv, const Model& model, int batch);

 private:
  void forward(int dataset, const std::int32_t* indices, int rows) override;
  void backward(int rows) override;

  ConvOps& conv_;
  ConvGeometry g1_, g2_;
  int layer1_, layer2_;
  int flat_, hidden_, classes_;
  // Activations (a: after conv + ReLU, p: after pooling) and their gradients (d…), batch rows each.
  float *x_, *a1_, *p1_, *a2_, *p2_, *h_, *z_;
  float *da1_, *dp1_, *da2_, *dp2_, *dh_, *dz_;
  int* y_;
};

}  // namespace gkebuild::workloads
