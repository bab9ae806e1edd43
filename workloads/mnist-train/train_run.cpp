#include "mnist-train/train_run.h"

#include <cmath>
#include <cstdio>

#include "cli/exit_codes.h"
#include "common/errors.h"
#include "mnist-train/cpu_mlp_ops.h"
#include "mnist-train/idx.h"
#include "mnist-train/mlp_trainer.h"
#if GKEBUILD_WITH_CUDA
#include "mnist-train/cuda_mlp_ops.h"
#endif

namespace gkebuild::workloads {
namespace {

std::unique_ptr<MlpOps> make_ops(const Device& device) {
#if GKEBUILD_WITH_CUDA
  if (device.kind == DeviceKind::cuda) return make_cuda_mlp_ops(device.index);
#endif
  return make_cpu_mlp_ops(device.threads);
}

MlpModel starting_model(const TrainConfig& config, const MnistSet& train) {
  const auto inputs = static_cast<int>(train.pixels_per_image());
  if (config.load.empty()) return init_mlp(inputs, config.hidden, kMnistClasses, config.seed);
  MlpModel model = load_checkpoint(config.load);
  if (model.inputs != inputs || model.classes != kMnistClasses) {
    throw UsageError(config.load.string() + ": the checkpoint takes " + std::to_string(model.inputs) +
                     " inputs and " + std::to_string(model.classes) + " classes, the data has " +
                     std::to_string(inputs) + " pixels and 10 classes");
  }
  return model;
}

void write_epoch(ResultWriter& writer, const nlohmann::json& shape, int epoch, const EpochResult& train,
                 const EpochResult& test) {
  Measurement m;
  m.precision = "fp32";
  m.shape = shape;
  m.extra = {{"epoch", epoch}};
  const std::tuple<const char*, double, const char*> lines[] = {
      {"train_loss", train.loss, "nats"},
      {"train_accuracy", train.accuracy, "fraction"},
      {"test_loss", test.loss, "nats"},
      {"test_accuracy", test.accuracy, "fraction"},
      {"throughput", static_cast<double>(train.samples) / train.seconds, "samples/s"}};
  for (const auto& [metric, value, unit] : lines) {
    m.metric = metric;
    m.value = value;
    m.unit = unit;
    writer.write(m);
  }
  std::fprintf(stderr, "mnist-train: epoch %d  loss %.4f  train accuracy %.4f  test loss %.4f  test accuracy %.4f  %.0f samples/s\n",
               epoch, train.loss, train.accuracy, test.loss, test.accuracy,
               static_cast<double>(train.samples) / train.seconds);
}

}  // namespace

void validate(const TrainConfig& c) {
  if (c.epochs < 0 || c.epochs > 10000) throw UsageError("--epochs must be between 0 and 10000");
  if (c.batch < 1 || c.batch > 65536) throw UsageError("--batch must be between 1 and 65536");
  if (c.hidden < 1 || c.hidden > 65536) throw UsageError("--hidden must be between 1 and 65536");
  if (!(c.learning_rate > 0.0f) || !std::isfinite(c.learning_rate)) throw UsageError("--lr must be a positive number");
  if (c.train_limit < 0) throw UsageError("--train-limit must not be negative");
}

int run_training(const TrainConfig& config, const Device& device, ResultWriter& writer) {
  const MnistSet train = load_mnist(config.data, "train");
  const MnistSet test = load_mnist(config.data, "t10k");
  if (train.rows != test.rows || train.cols != test.cols) {
    throw UsageError("the training images are " + std::to_string(train.rows) + "x" + std::to_string(train.cols) +
                     ", the test images " + std::to_string(test.rows) + "x" + std::to_string(test.cols));
  }
  const std::int64_t count = config.train_limit > 0 ? std::min(config.train_limit, train.count()) : train.count();
  MlpModel model = starting_model(config, train);
  auto ops = make_ops(device);
  const int train_id = ops->add_dataset(train);
  const int test_id = ops->add_dataset(test);
  MlpTrainer trainer(*ops, model, config.batch);
  const nlohmann::json shape = {{"model", "mlp"}, {"inputs", model.inputs}, {"hidden", model.hidden},
                                {"classes", model.classes}, {"batch", config.batch},
                                {"train_samples", count}, {"test_samples", test.count()}};
  std::mt19937_64 rng(config.seed);
  for (int epoch = 1; epoch <= config.epochs; ++epoch) {
    const EpochResult trained = trainer.train_epoch(train_id, count, rng, config.learning_rate);
    const EpochResult tested = trainer.evaluate(test_id, test.count());
    if (!std::isfinite(trained.loss)) throw RunError("the loss diverged; try a smaller --lr");
    write_epoch(writer, shape, epoch, trained, tested);
  }
  if (config.epochs == 0) {
    const EpochResult tested = trainer.evaluate(test_id, test.count());
    std::fprintf(stderr, "mnist-train: test loss %.4f  test accuracy %.4f\n", tested.loss, tested.accuracy);
    writer.write({"test_accuracy", tested.accuracy, "fraction", "fp32", shape, 1, {{"epoch", 0}}});
  }
  if (!config.save.empty()) {
    save_checkpoint(trainer.model(), config.save);
    std::fprintf(stderr, "mnist-train: saved the checkpoint to %s\n", config.save.string().c_str());
  }
  return cli::kExitSuccess;
}

}  // namespace gkebuild::workloads
