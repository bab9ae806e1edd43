#include "workloads/mnist-train/cnn_trainer.h"

namespace gkebuild::workloads {
namespace {

// Parameter indices, as parameter_sizes() orders them.
enum : std::size_t { kConv1W, kConv1B, kConv2W, kConv2B, kFc1W, kFc1B, kFc2W, kFc2B };

}  // namespace

CnnTrainer::CnnTrainer(MlpOps& ops, ConvOps& conv, const Model& m, int batch)
    : Trainer(ops, m, batch), conv_(conv), flat_(m.shape.flat()), hidden_(m.shape.hidden), classes_(m.shape.classes) {
  const ModelShape& s = m.shape;
  g1_ = {1, s.height, s.width, s.conv1, s.kernel, s.kernel / 2};
  g2_ = {s.conv1, g1_.out_height() / 2, g1_.out_width() / 2, s.conv2, s.kernel, 0};
  layer1_ = conv_.add_layer(g1_, batch);
  layer2_ = conv_.add_layer(g2_, batch);
  x_ = activations(g1_.input_per_row());
  a1_ = activations(g1_.output_per_row());
  da1_ = activations(g1_.output_per_row());
  p1_ = activations(g2_.input_per_row());
  dp1_ = activations(g2_.input_per_row());
  a2_ = activations(g2_.output_per_row());
  da2_ = activations(g2_.output_per_row());
  p2_ = activations(static_cast<std::size_t>(flat_));
  dp2_ = activations(static_cast<std::size_t>(flat_));
  h_ = activations(static_cast<std::size_t>(hidden_));
  dh_ = activations(static_cast<std::size_t>(hidden_));
  z_ = activations(static_cast<std::size_t>(classes_));
  dz_ = activations(static_cast<std::size_t>(classes_));
  y_ = ops_.ints(static_cast<std::size_t>(batch));
}

void CnnTrainer::forward(int dataset, const std::int32_t* indices, int rows) {
  ops_.gather(dataset, indices, rows, x_, y_);
  conv_.forward(layer1_, rows, x_, parameter(kConv1W), parameter(kConv1B), a1_);
  conv_.max_pool(rows, g1_.filters, g1_.out_height(), g1_.out_width(), a1_, p1_);
  conv_.forward(layer2_, rows, p1_, parameter(kConv2W), parameter(kConv2B), a2_);
  conv_.max_pool(rows, g2_.filters, g2_.out_height(), g2_.out_width(), a2_, p2_);
  ops_.gemm(Transpose::no, Transpose::yes, rows, hidden_, flat_, p2_, flat_, parameter(kFc1W), flat_, 0.0f, h_,
            hidden_);
  ops_.add_bias(h_, parameter(kFc1B), rows, hidden_, true);
  ops_.gemm(Transpose::no, Transpose::yes, rows, classes_, hidden_, h_, hidden_, parameter(kFc2W), hidden_, 0.0f, z_,
            classes_);
  ops_.add_bias(z_, parameter(kFc2B), rows, classes_, false);
  ops_.softmax_cross_entropy(z_, y_, rows, classes_, 1.0f / static_cast<float>(rows), dz_);
}

void CnnTrainer::backward(int rows) {
  const auto count = [rows](std::size_t per_row) { return per_row * static_cast<std::size_t>(rows); };
  // The fully connected layers, as in the MLP; then the gradient of the pooled features.
  ops_.gemm(Transpose::yes, Transpose::no, classes_, hidden_, rows, dz_, classes_, h_, hidden_, 0.0f,
            gradient(kFc2W), hidden_);
  ops_.column_sums(dz_, rows, classes_, gradient(kFc2B));
  ops_.gemm(Transpose::no, Transpose::no, rows, hidden_, classes_, dz_, classes_, parameter(kFc2W), hidden_, 0.0f,
            dh_, hidden_);
  ops_.relu_backward(dh_, h_, count(static_cast<std::size_t>(hidden_)));
  ops_.gemm(Transpose::yes, Transpose::no, hidden_, flat_, rows, dh_, hidden_, p2_, flat_, 0.0f, gradient(kFc1W),
            flat_);
  ops_.column_sums(dh_, rows, hidden_, gradient(kFc1B));
  ops_.gemm(Transpose::no, Transpose::no, rows, flat_, hidden_, dh_, hidden_, parameter(kFc1W), flat_, 0.0f, dp2_,
            flat_);
  // Back through pool2, ReLU and conv2, then pool1, ReLU and conv1 (whose input needs no gradient).
  conv_.max_pool_backward(rows, g2_.filters, g2_.out_height(), g2_.out_width(), a2_, dp2_, da2_);
  ops_.relu_backward(da2_, a2_, count(g2_.output_per_row()));
  conv_.backward_filter(layer2_, rows, p1_, da2_, gradient(kConv2W), gradient(kConv2B));
  conv_.backward_data(layer2_, rows, parameter(kConv2W), da2_, dp1_);
  conv_.max_pool_backward(rows, g1_.filters, g1_.out_height(), g1_.out_width(), a1_, dp1_, da1_);
  ops_.relu_backward(da1_, a1_, count(g1_.output_per_row()));
  conv_.backward_filter(layer1_, rows, x_, da1_, gradient(kConv1W), gradient(kConv1B));
}

}  // namespace gkebuild::workloads
