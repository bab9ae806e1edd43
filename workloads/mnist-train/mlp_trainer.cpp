#include "workloads/mnist-train/mlp_trainer.h"

namespace gkebuild::workloads {

MlpTrainer::MlpTrainer(MlpOps& ops, const Model& m, int batch)
    : Trainer(ops, m, batch), inputs_(m.shape.inputs()), hidden_(m.shape.hidden), classes_(m.shape.classes) {
  x_ = activations(static_cast<std::size_t>(inputs_));
  h_ = activations(static_cast<std::size_t>(hidden_));
  dh_ = activations(static_cast<std::size_t>(hidden_));
  z_ = activations(static_cast<std::size_t>(classes_));
  dz_ = activations(static_cast<std::size_t>(classes_));
  y_ = ops_.ints(static_cast<std::size_t>(batch));
}

// h = relu(x·W1ᵀ + b1), z = h·W2ᵀ + b2, dz = (softmax(z) − onehot(y)) / rows.
void MlpTrainer::forward(int dataset, const std::int32_t* indices, int rows) {
  ops_.gather(dataset, indices, rows, x_, y_);
  ops_.gemm(Transpose::no, Transpose::yes, rows, hidden_, inputs_, x_, inputs_, parameter(0), inputs_, 0.0f, h_,
            hidden_);
  ops_.add_bias(h_, parameter(1), rows, hidden_, true);
  ops_.gemm(Transpose::no, Transpose::yes, rows, classes_, hidden_, h_, hidden_, parameter(2), hidden_, 0.0f, z_,
            classes_);
  ops_.add_bias(z_, parameter(3), rows, classes_, false);
  ops_.softmax_cross_entropy(z_, y_, rows, classes_, 1.0f / static_cast<float>(rows), dz_);
}

// Gradients of the mean loss.
void MlpTrainer::backward(int rows) {
  ops_.gemm(Transpose::yes, Transpose::no, classes_, hidden_, rows, dz_, classes_, h_, hidden_, 0.0f, gradient(2),
            hidden_);
  ops_.column_sums(dz_, rows, classes_, gradient(3));
  ops_.gemm(Transpose::no, Transpose::no, rows, hidden_, classes_, dz_, classes_, parameter(2), hidden_, 0.0f, dh_,
            hidden_);
  ops_.relu_backward(dh_, h_, static_cast<std::size_t>(rows) * hidden_);
  ops_.gemm(Transpose::yes, Transpose::no, hidden_, inputs_, rows, dh_, hidden_, x_, inputs_, 0.0f, gradient(0),
            inputs_);
  ops_.column_sums(dh_, rows, hidden_, gradient(1));
}

}  // namespace gkebuild::workloads
