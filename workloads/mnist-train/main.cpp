// mnist-train: trains a LeNet-style CNN (cuDNN on a GPU) or a multi-layer perceptron (cuBLAS
// and own kernels) on MNIST IDX files, or either on the CPU; per epoch loss, accuracy and
// samples/s as JSON lines; per-epoch checkpoints that a restarted (preempted) run resumes from.
#include <iostream>

#include "workloads/common/device.h"
#include "workloads/common/program.h"
#include "workloads/mnist-train/train_run.h"

using namespace gkebuild::workloads;

int main(int argc, char** argv) {
  CLI::App app("Train a CNN or an MLP on MNIST (IDX files) and report loss, accuracy and samples/s", "mnist-train");
  TrainConfig config;
  CommonOptions common;
  std::string model = "cnn", precision = "fp32";
  app.add_option("--data", config.data, "folder with train-*-ubyte and t10k-*-ubyte IDX files")->required();
  app.add_option("--model", model, "cnn (LeNet-style: two conv + pool layers, two fully connected) or mlp")
      ->capture_default_str();
  app.add_option("--precision", precision, "fp32, tf32 or fp16 (tensor cores, FP32 master weights; GPU only)")
      ->capture_default_str();
  app.add_option("--epochs", config.epochs, "passes over the training set")->capture_default_str();
  app.add_option("--batch", config.batch, "samples a step")->capture_default_str();
  app.add_option("--hidden", config.hidden, "units of the hidden fully connected layer")->capture_default_str();
  app.add_option("--lr", config.learning_rate, "SGD learning rate")->capture_default_str();
  app.add_option("--momentum", config.momentum, "SGD momentum (0: plain SGD)")->capture_default_str();
  app.add_option("--train-limit", config.train_limit, "use only the first N training samples");
  app.add_option("--seed", config.seed, "seed of the weights and the sample order")->capture_default_str();
  app.add_option("--checkpoint-dir", config.checkpoint_dir,
                 "write a checkpoint here after every epoch and resume from the newest on start");
  app.add_option("--save", config.save, "write a checkpoint here after the last epoch");
  app.add_option("--load", config.load, "start from the weights of this checkpoint");
  add_common_options(app, common);
  if (auto code = parse_command_line(app, argc, argv)) return *code;

  return run_guarded("mnist-train", [&] {
    config.model = parse_model_kind(model);
    config.precision = parse_precision(precision);
    validate(config);
    const Device device = select_device(common, "mnist-train");
    ResultWriter writer(std::cout, "mnist-train", device_json(device));
    return run_training(config, device, writer);
  });
}
