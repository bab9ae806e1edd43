#include "workloads/mnist-train/train_run.h"

#include <cmath>
#include <csignal>
#include <cstdio>
#include <numeric>
#include <random>
#include <sstream>

#include "base/exit_codes.h"
#include "base/printable.h"
#include "workloads/common/errors.h"
#include "workloads/mnist-train/checkpoint.h"
#include "workloads/mnist-train/cpu_conv_ops.h"
#include "workloads/mnist-train/cpu_mlp_ops.h"
#include "workloads/mnist-train/idx.h"
#include "workloads/mnist-train/stop_signal.h"
#include "workloads/mnist-train/trainer.h"
#if GKEBUILD_WITH_CUDA
#include "workloads/mnist-train/cuda_mlp_ops.h"
#endif
#if GKEBUILD_MNIST_CUDNN
#include "workloads/mnist-train/cudnn_conv_ops.h"
#endif

namespace gkebuild::workloads {
namespace {

struct DeviceOps {
  std::unique_ptr<MlpOps> ops;
  std::unique_ptr<ConvOps> conv;  // null where the build has no cuDNN
};

DeviceOps make_ops(const Device& device, Precision precision) {
#if GKEBUILD_WITH_CUDA
  if (device.kind == DeviceKind::cuda) {
    DeviceOps d{make_cuda_mlp_ops(device.index, precision), nullptr};
#if GKEBUILD_MNIST_CUDNN
    d.conv = make_cudnn_conv_ops(device.index, precision);
#endif
    return d;
  }
#endif
  if (precision != Precision::fp32) {
    throw UsageError("the CPU path trains in fp32 only; --precision " + to_string(precision) + " needs a CUDA device");
  }
  return {make_cpu_mlp_ops(device.threads), make_cpu_conv_ops(device.threads)};
}

// The sample order of the next epoch, drawn from the state's generator (which moves on).
void draw_order(TrainState& state) {
  std::mt19937_64 rng;
  std::istringstream(state.rng) >> rng;
  state.order.resize(static_cast<std::size_t>(state.settings.train_samples));
  std::iota(state.order.begin(), state.order.end(), 0);
  std::shuffle(state.order.begin(), state.order.end(), rng);
  std::ostringstream text;
  text << rng;
  state.rng = text.str();
}

TrainState fresh_state(const TrainConfig& config, const ModelShape& shape, const TrainSettings& settings) {
  TrainState state;
  state.settings = settings;
  if (config.load.empty()) {
    state.model = init_model(shape, config.seed);
  } else {
    TrainState loaded = load_checkpoint(config.load);
    if (!(loaded.model.shape == shape)) {
      throw UsageError(printable(config.load.string()) + ": " + mismatch(loaded, shape, loaded.settings));
    }
    state.model = std::move(loaded.model);
  }
  for (const auto& p : state.model.parameters) state.velocity.emplace_back(p.size(), 0.0f);
  std::ostringstream rng;
  rng << std::mt19937_64(config.seed);
  state.rng = rng.str();
  draw_order(state);
  return state;
}

// The newest valid checkpoint of --checkpoint-dir when there is one, else a fresh start.
TrainState starting_state(const TrainConfig& config, const ModelShape& shape, const TrainSettings& settings) {
  if (config.checkpoint_dir.empty()) return fresh_state(config, shape, settings);
  const CheckpointDir dir(config.checkpoint_dir);
  std::filesystem::path from;
  std::optional<TrainState> resumed = dir.newest_valid(&from);
  const std::string where = printable(config.checkpoint_dir.string());
  if (!resumed) {
    std::fprintf(stderr, "mnist-train: no checkpoint in %s yet: starting at epoch 1\n", where.c_str());
    return fresh_state(config, shape, settings);
  }
  if (std::string why = mismatch(*resumed, shape, settings); !why.empty()) {
    throw UsageError(printable(from.string()) + ": not a checkpoint of this run: " + why +
                     "; use another --checkpoint-dir or the same options");
  }
  std::fprintf(stderr, "mnist-train: resuming from %s: %d epoch(s) done, %lld steps\n",
               printable(from.string()).c_str(), resumed->epochs_done, static_cast<long long>(resumed->steps));
  return std::move(*resumed);
}

void write_epoch(ResultWriter& writer, const Measurement& base, int epoch, const EpochResult& train,
                 const EpochResult& test) {
  Measurement m = base;
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

// The state after a finished epoch, in the checkpoint folder when there is one (before the
// epoch's result lines: a reader that sees them can count on the checkpoint).
void record_epoch(TrainState& state, Trainer& trainer, const TrainConfig& config) {
  state.model = trainer.model();
  state.velocity = trainer.velocity();
  state.epochs_done += 1;
  state.steps += (state.settings.train_samples + config.batch - 1) / config.batch;
  draw_order(state);
  if (!config.checkpoint_dir.empty()) CheckpointDir(config.checkpoint_dir).save(state);
}

int stopped(const TrainConfig& config, int epoch, const EpochResult& trained, std::int64_t batch) {
  const char* name = stop_signal() == SIGINT ? "SIGINT" : "SIGTERM";
  std::fprintf(stderr, "mnist-train: %s in epoch %d: stopped after step %lld of it%s\n", name, epoch,
               static_cast<long long>((trained.samples + batch - 1) / batch),
               config.checkpoint_dir.empty() ? " (no --checkpoint-dir: nothing to resume from)"
                                             : "; the next start resumes from the last finished epoch");
  return cli::kExitInterrupted;
}

}  // namespace

void validate(const TrainConfig& c) {
  if (c.epochs < 0 || c.epochs > 10000) throw UsageError("--epochs must be between 0 and 10000");
  if (c.batch < 1 || c.batch > 65536) throw UsageError("--batch must be between 1 and 65536");
  if (c.hidden < 1 || c.hidden > 65536) throw UsageError("--hidden must be between 1 and 65536");
  if (!(c.learning_rate > 0.0f) || !std::isfinite(c.learning_rate)) throw UsageError("--lr must be a positive number");
  if (!(c.momentum >= 0.0f && c.momentum < 1.0f)) throw UsageError("--momentum must be at least 0 and below 1");
  if (c.train_limit < 0) throw UsageError("--train-limit must not be negative");
  if (c.precision == Precision::bf16) throw UsageError("--precision must be fp32, tf32 or fp16");
}

int run_training(const TrainConfig& config, const Device& device, ResultWriter& writer) {
  const std::atomic<bool>& stop = install_stop_handler();
  const MnistSet train = load_mnist(config.data, "train");
  const MnistSet test = load_mnist(config.data, "t10k");
  if (train.rows != test.rows || train.cols != test.cols) {
    throw UsageError("the training images are " + std::to_string(train.rows) + "x" + std::to_string(train.cols) +
                     ", the test images " + std::to_string(test.rows) + "x" + std::to_string(test.cols));
  }
  ModelShape shape;
  shape.kind = config.model;
  shape.height = static_cast<int>(train.rows);
  shape.width = static_cast<int>(train.cols);
  shape.hidden = config.hidden;
  shape.classes = kMnistClasses;
  validate(shape);
  const std::int64_t count = config.train_limit > 0 ? std::min(config.train_limit, train.count()) : train.count();
  const TrainSettings settings{config.batch, config.learning_rate, config.momentum, config.seed, count,
                               to_string(config.precision)};
  TrainState state = starting_state(config, shape, settings);

  DeviceOps ops = make_ops(device, config.precision);
  const int train_id = ops.ops->add_dataset(train);
  const int test_id = ops.ops->add_dataset(test);
  auto trainer = make_trainer(*ops.ops, ops.conv.get(), state.model, config.batch);
  trainer->set_velocity(state.velocity);
  Measurement line;
  line.precision = to_string(config.precision);
  line.shape = shape_json(shape);
  line.shape.update({{"batch", config.batch}, {"train_samples", count}, {"test_samples", test.count()}});
  const int first_epoch = state.epochs_done + 1;
  for (int epoch = first_epoch; epoch <= config.epochs; ++epoch) {
    const EpochResult trained = trainer->train_epoch(train_id, state.order, config.learning_rate, config.momentum, &stop);
    if (trained.stopped) return stopped(config, epoch, trained, config.batch);
    const EpochResult tested = trainer->evaluate(test_id, test.count());
    if (!std::isfinite(trained.loss)) throw RunError("the loss diverged; try a smaller --lr");
    record_epoch(state, *trainer, config);
    write_epoch(writer, line, epoch, trained, tested);
  }
  if (first_epoch > config.epochs) {  // nothing (left) to train: the test accuracy as it is
    const EpochResult tested = trainer->evaluate(test_id, test.count());
    std::fprintf(stderr, "mnist-train: test loss %.4f  test accuracy %.4f\n", tested.loss, tested.accuracy);
    line.metric = "test_accuracy";
    line.value = tested.accuracy;
    line.unit = "fraction";
    line.extra = {{"epoch", state.epochs_done}};
    writer.write(line);
  }
  if (!config.save.empty()) {
    save_checkpoint(state, config.save);
    std::fprintf(stderr, "mnist-train: saved the checkpoint to %s\n", printable(config.save.string()).c_str());
  }
  return cli::kExitSuccess;
}

}  // namespace gkebuild::workloads
