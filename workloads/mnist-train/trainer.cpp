#include "workloads/mnist-train/trainer.h"

#include <algorithm>
#include <numeric>

#include "workloads/common/errors.h"
#include "workloads/mnist-train/cnn_trainer.h"
#include "workloads/mnist-train/mlp_trainer.h"

namespace gkebuild::workloads {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

Trainer::Trainer(MlpOps& ops, const Model& model, int batch)
    : ops_(ops), batch_(batch), shape_(model.shape), sizes_(parameter_sizes(model.shape)) {
  for (std::size_t i = 0; i < sizes_.size(); ++i) {
    parameters_.push_back(ops_.floats(sizes_[i]));
    ops_.upload(parameters_.back(), model.parameters[i]);
    gradients_.push_back(ops_.floats(sizes_[i]));
    velocities_.push_back(ops_.floats(sizes_[i]));
    ops_.upload(velocities_.back(), std::vector<float>(sizes_[i], 0.0f));
  }
}

float* Trainer::activations(std::size_t per_row) { return ops_.floats(static_cast<std::size_t>(batch_) * per_row); }

EpochResult Trainer::finish(std::chrono::steady_clock::time_point start, std::int64_t count) {
  const BatchTotals totals = ops_.totals();  // waits for the device, so the time is right
  const double n = static_cast<double>(std::max<std::int64_t>(count, 1));
  return {totals.loss_sum / n, static_cast<double>(totals.correct) / n, seconds_since(start), count, false};
}

EpochResult Trainer::train_epoch(int dataset, const std::vector<std::int32_t>& order, float lr, float momentum,
                                 const std::atomic<bool>* stop) {
  const auto start = std::chrono::steady_clock::now();
  const auto count = static_cast<std::int64_t>(order.size());
  ops_.reset_totals();
  std::int64_t first = 0;
  for (; first < count; first += batch_) {
    if (stop && stop->load()) break;
    const int rows = static_cast<int>(std::min<std::int64_t>(batch_, count - first));
    forward(dataset, order.data() + first, rows);
    backward(rows);
    for (std::size_t i = 0; i < sizes_.size(); ++i) {
      ops_.sgd_step(parameters_[i], gradients_[i], velocities_[i], sizes_[i], lr, momentum);
    }
  }
  EpochResult result = finish(start, first < count ? first : count);
  result.stopped = first < count;
  return result;
}

EpochResult Trainer::evaluate(int dataset, std::int64_t count) {
  std::vector<std::int32_t> order(static_cast<std::size_t>(count));
  std::iota(order.begin(), order.end(), 0);
  const auto start = std::chrono::steady_clock::now();
  ops_.reset_totals();
  for (std::int64_t first = 0; first < count; first += batch_) {
    forward(dataset, order.data() + first, static_cast<int>(std::min<std::int64_t>(batch_, count - first)));
  }
  return finish(start, count);
}

Model Trainer::model() {
  Model m{shape_, {}};
  for (std::size_t i = 0; i < sizes_.size(); ++i) m.parameters.push_back(ops_.download(parameters_[i], sizes_[i]));
  return m;
}

std::vector<std::vector<float>> Trainer::velocity() {
  std::vector<std::vector<float>> v;
  for (std::size_t i = 0; i < sizes_.size(); ++i) v.push_back(ops_.download(velocities_[i], sizes_[i]));
  return v;
}

void Trainer::set_velocity(const std::vector<std::vector<float>>& velocity) {
  for (std::size_t i = 0; i < sizes_.size(); ++i) ops_.upload(velocities_[i], velocity[i]);
}

std::unique_ptr<Trainer> make_trainer(MlpOps& ops, ConvOps* conv, const Model& model, int batch) {
  if (model.shape.kind == ModelKind::mlp) return std::make_unique<MlpTrainer>(ops, model, batch);
  if (!conv) throw RunError("this build has no convolutions for this device (cuDNN was not found)");
  return std::make_unique<CnnTrainer>(ops, *conv, model, batch);
}

}  // namespace gkebuild::workloads
