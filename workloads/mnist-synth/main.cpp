// mnist-synth: writes a synthetic MNIST data set (train-* and t10k-* IDX files) into a
// folder, for tests and demos; nothing is downloaded.
#include <cmath>
#include <cstdio>
#include <system_error>

#include "workloads/common/errors.h"
#include "workloads/common/program.h"
#include "workloads/mnist-synth/synth.h"

using namespace gkebuild::workloads;

int main(int argc, char** argv) {
  CLI::App app("Write a synthetic, learnable MNIST-like data set as IDX files", "mnist-synth");
  std::string out;
  SynthOptions train{10000, 1, 0.5};
  std::int64_t test_count = 2000;
  app.add_option("--out", out, "folder to write the four IDX files into")->required();
  app.add_option("--train", train.count, "training samples")->capture_default_str();
  app.add_option("--test", test_count, "test samples")->capture_default_str();
  app.add_option("--seed", train.seed, "seed of the samples")->capture_default_str();
  app.add_option("--noise", train.noise, "pixel noise, standard deviation as a fraction of 255")
      ->capture_default_str();
  if (auto code = parse_command_line(app, argc, argv)) return *code;

  return run_guarded("mnist-synth", [&] {
    constexpr std::int64_t kMax = 10'000'000;
    if (train.count < 1 || train.count > kMax || test_count < 1 || test_count > kMax) {
      throw UsageError("--train and --test must be between 1 and 10000000");
    }
    if (!(train.noise >= 0.0 && train.noise <= 1.0)) throw UsageError("--noise must be between 0 and 1");
    const SynthOptions test{test_count, train.seed + 0x7e57, train.noise};
    try {
      save_mnist(synthesize_mnist(train), out, "train");
      save_mnist(synthesize_mnist(test), out, "t10k");
    } catch (const std::system_error& e) {
      throw RunError(e.what());
    }
    std::fprintf(stderr, "mnist-synth: wrote %lld training and %lld test samples to %s\n",
                 static_cast<long long>(train.count), static_cast<long long>(test_count), out.c_str());
    return 0;
  });
}
