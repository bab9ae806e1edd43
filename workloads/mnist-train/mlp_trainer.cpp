#include "mnist-train/mlp_trainer.h"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <vector>

namespace gkebuild::workloads {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

EpochResult MlpTrainer::finish(std::chrono::steady_clock::time_point start, std::int64_t count) {
  const BatchTotals totals = ops_.totals();  // waits for the device, so the time is right
  const double n = static_cast<double>(count);
  return {totals.loss_sum / n, static_cast<double>(totals.correct) / n, seconds_since(start), count};
}

MlpTrainer::MlpTrainer(MlpOps& ops, const MlpModel& m, int batch)
    : ops_(ops), inputs_(m.inputs), hidden_(m.hidden), classes_(m.classes), batch_(batch) {
  const auto b = static_cast<std::size_t>(batch);
  auto parameter = [&](const std::vector<float>& init) {
    float* p = ops_.floats(init.size());
    ops_.upload(p, init);
    return p;
  };
  w1_ = parameter(m.w1);
  b1_ = parameter(m.b1);
  w2_ = parameter(m.w2);
  b2_ = parameter(m.b2);
  gw1_ = ops_.floats(m.w1.size());
  gb1_ = ops_.floats(m.b1.size());
  gw2_ = ops_.floats(m.w2.size());
  gb2_ = ops_.floats(m.b2.size());
  x_ = ops_.floats(b * static_cast<std::size_t>(inputs_));
  h_ = ops_.floats(b * static_cast<std::size_t>(hidden_));
  dh_ = ops_.floats(b * static_cast<std::size_t>(hidden_));
  z_ = ops_.floats(b * static_cast<std::size_t>(classes_));
  dz_ = ops_.floats(b * static_cast<std::size_t>(classes_));
  y_ = ops_.ints(b);
}

// h = relu(x·W1ᵀ + b1), z = h·W2ᵀ + b2, dz = (softmax(z) − onehot(y)) / rows.
void MlpTrainer::forward(int dataset, const std::int32_t* indices, int rows) {
  ops_.gather(dataset, indices, rows, x_, y_);
  ops_.gemm(Transpose::no, Transpose::yes, rows, hidden_, inputs_, x_, inputs_, w1_, inputs_, 0.0f, h_, hidden_);
  ops_.add_bias(h_, b1_, rows, hidden_, true);
  ops_.gemm(Transpose::no, Transpose::yes, rows, classes_, hidden_, h_, hidden_, w2_, hidden_, 0.0f, z_, classes_);
  ops_.add_bias(z_, b2_, rows, classes_, false);
  ops_.softmax_cross_entropy(z_, y_, rows, classes_, 1.0f / static_cast<float>(rows), dz_);
}

// Gradients of the mean loss, then one SGD step on every parameter.
void MlpTrainer::backward_and_update(int rows, float lr) {
  ops_.gemm(Transpose::yes, Transpose::no, classes_, hidden_, rows, dz_, classes_, h_, hidden_, 0.0f, gw2_, hidden_);
  ops_.column_sums(dz_, rows, classes_, gb2_);
  ops_.gemm(Transpose::no, Transpose::no, rows, hidden_, classes_, dz_, classes_, w2_, hidden_, 0.0f, dh_, hidden_);
  ops_.relu_backward(dh_, h_, static_cast<std::size_t>(rows) * hidden_);
  ops_.gemm(Transpose::yes, Transpose::no, hidden_, inputs_, rows, dh_, hidden_, x_, inputs_, 0.0f, gw1_, inputs_);
  ops_.column_sums(dh_, rows, hidden_, gb1_);
  const auto size = [](int a, int b) { return static_cast<std::size_t>(a) * static_cast<std::size_t>(b); };
  ops_.sgd_step(w1_, gw1_, size(hidden_, inputs_), lr);
  ops_.sgd_step(b1_, gb1_, size(hidden_, 1), lr);
  ops_.sgd_step(w2_, gw2_, size(classes_, hidden_), lr);
  ops_.sgd_step(b2_, gb2_, size(classes_, 1), lr);
}

EpochResult MlpTrainer::train_epoch(int dataset, std::int64_t count, std::mt19937_64& rng, float lr) {
  std::vector<std::int32_t> order(static_cast<std::size_t>(count));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  const auto start = std::chrono::steady_clock::now();
  ops_.reset_totals();
  for (std::int64_t first = 0; first < count; first += batch_) {
    const int rows = static_cast<int>(std::min<std::int64_t>(batch_, count - first));
    forward(dataset, order.data() + first, rows);
    backward_and_update(rows, lr);
  }
  return finish(start, count);
}

EpochResult MlpTrainer::evaluate(int dataset, std::int64_t count) {
  std::vector<std::int32_t> order(static_cast<std::size_t>(count));
  std::iota(order.begin(), order.end(), 0);
  const auto start = std::chrono::steady_clock::now();
  ops_.reset_totals();
  for (std::int64_t first = 0; first < count; first += batch_) {
    const int rows = static_cast<int>(std::min<std::int64_t>(batch_, count - first));
    forward(dataset, order.data() + first, rows);
  }
  return finish(start, count);
}

MlpModel MlpTrainer::model() {
  MlpModel m{inputs_, hidden_, classes_, {}, {}, {}, {}};
  m.w1 = ops_.download(w1_, static_cast<std::size_t>(hidden_) * inputs_);
  m.b1 = ops_.download(b1_, static_cast<std::size_t>(hidden_));
  m.w2 = ops_.download(w2_, static_cast<std::size_t>(classes_) * hidden_);
  m.b2 = ops_.download(b2_, static_cast<std::size_t>(classes_));
  return m;
}

}  // namespace gkebuild::workloads
