// mnist-train: trains a multi-layer perceptron on MNIST IDX files (cuBLAS and own kernels on a
// GPU, the blocked SGEMM on the CPU); per epoch loss, accuracy and samples/s as JSON lines.
#include <iostream>

#include "common/device.h"
#include "common/program.h"
#include "mnist-train/train_run.h"

using namespace gkebuild::workloads;

int main(int argc, char** argv) {
  CLI::App app("Train an MLP on MNIST (IDX files) and report loss, accuracy and samples/s", "mnist-train");
  TrainConfig config;
  CommonOptions common;
  app.add_option("--data", config.data, "folder with train-*-ubyte and t10k-*-ubyte IDX files")->required();
  app.add_option("--epochs", config.epochs, "passes over the training set")->capture_default_str();
  app.add_option("--batch", config.batch, "samples a step")->capture_default_str();
  app.add_option("--hidden", config.hidden, "hidden units")->capture_default_str();
  app.add_option("--lr", config.learning_rate, "SGD learning rate")->capture_default_str();
  app.add_option("--train-limit", config.train_limit, "use only the first N training samples");
  app.add_option("--seed", config.seed, "seed of the weights and the sample order")->capture_default_str();
  app.add_option("--save", config.save, "write a checkpoint here after the last epoch");
  app.add_option("--load", config.load, "start from this checkpoint");
  add_common_options(app, common);
  if (auto code = parse_command_line(app, argc, argv)) return *code;

  return run_guarded("mnist-train", [&] {
    validate(config);
    const Device device = select_device(common, "mnist-train");
    ResultWriter writer(std::cout, "mnist-train", device_json(device));
    return run_training(config, device, writer);
  });
}
