// The operations one training step needs, on one device (the CNN adds conv_ops.h). The step
// itself (trainer, mlp_trainer, cnn_trainer) is written once against this interface; the CPU
// and CUDA paths implement it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "workloads/common/cpu_gemm.h"
#include "workloads/mnist-train/idx.h"

namespace gkebuild::workloads {

struct BatchTotals {
  double loss_sum = 0;      // Σ cross-entropy over the samples seen since reset_totals()
  std::int64_t correct = 0; // samples whose arg-max was the label
};

class MlpOps {
 public:
  virtual ~MlpOps() = default;

  // Memory on the device, owned by the ops for their whole life.
  virtual float* floats(std::size_t count) = 0;
  virtual int* ints(std::size_t count) = 0;
  virtual void upload(float* device, const std::vector<float>& host) = 0;
  virtual std::vector<float> download(const float* device, std::size_t count) = 0;

  // Makes a data set available to gather() (a copy on a GPU; on the CPU `set` must outlive
  // the ops); returns its id.
  virtual int add_dataset(const MnistSet& set) = 0;
  // x[i] = pixels of item indices[i] scaled to [0, 1], y[i] = its label; `indices` is host memory.
  virtual void gather(int dataset, const std::int32_t* indices, int count, float* x, int* y) = 0;

  // Row-major C = op(A)·op(B) + beta·C, as cpu_sgemm (on a GPU in the ops' precision).
  virtual void gemm(Transpose ta, Transpose tb, int m, int n, int k, const float* a, int lda, const float* b,
                    int ldb, float beta, float* c, int ldc) = 0;
  // x(rows×cols) += bias per column, then max(0, x) when relu.
  virtual void add_bias(float* x, const float* bias, int rows, int cols, bool relu) = 0;
  // grad = scale·(softmax(logits) − onehot(y)); adds the loss and hits to the totals.
  virtual void softmax_cross_entropy(const float* logits, const int* y, int rows, int classes, float scale,
                                     float* grad) = 0;
  // grad = 0 where activation ≤ 0.
  virtual void relu_backward(float* grad, const float* activation, std::size_t count) = 0;
  // sums[j] = Σ_i x(i, j).
  virtual void column_sums(const float* x, int rows, int cols, float* sums) = 0;
  // SGD with momentum: velocity = momentum·velocity + grad, param −= lr·velocity.
  virtual void sgd_step(float* param, const float* grad, float* velocity, std::size_t count, float lr,
                        float momentum) = 0;

  virtual void reset_totals() = 0;
  // Waits for the device's queued work.
  virtual BatchTotals totals() = 0;
};

}  // namespace gkebuild::workloads
