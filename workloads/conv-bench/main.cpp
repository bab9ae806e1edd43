// conv-bench: forward convolution throughput for ResNet-50 layer shapes on cuDNN or the CPU,
// after a check of the result against the direct loop. JSON lines on stdout.
#include <algorithm>
#include <iostream>

#include "base/suggest.h"
#include "workloads/common/device.h"
#include "workloads/common/errors.h"
#include "workloads/common/program.h"
#include "workloads/conv-bench/conv_runs.h"

using namespace gkebuild::workloads;

namespace {

std::vector<ConvShape> pick_layers(const std::vector<std::string>& names, std::int64_t batch) {
  const std::vector<ConvShape> all = resnet50_layers(batch);
  if (names.empty()) return all;
  std::vector<std::string> known;
  for (const ConvShape& s : all) known.push_back(s.name);
  std::vector<ConvShape> picked;
  for (const std::string& name : names) {
    const auto found = std::find(known.begin(), known.end(), name);
    if (found == known.end()) {
      throw UsageError("unknown layer '" + name + "'" + gkebuild::did_you_mean(name, known) +
                       "; run with --list-layers for the names");
    }
    picked.push_back(all[static_cast<std::size_t>(found - known.begin())]);
  }
  return picked;
}

void list_layers() {
  for (const ConvShape& s : resnet50_layers(1)) {
    std::cout << s.name << "  " << s.c << "x" << s.h << "x" << s.w << " -> " << s.k << "x" << s.p()
              << "x" << s.q() << "  filter " << s.r << "x" << s.s << " stride " << s.stride << "\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("Measure forward-convolution throughput for ResNet-50 layer shapes", "conv-bench");
  ConvConfig config;
  CommonOptions common;
  std::vector<std::string> layers;
  std::vector<std::string> precisions{"fp32"};
  std::int64_t batch = 0;
  bool list = false;
  app.add_option("--layer", layers, "layer names (default: all; see --list-layers)");
  app.add_flag("--list-layers", list, "print the layer shapes and exit");
  app.add_option("--batch", batch, "images a batch (default: 32 on CUDA, 2 on the CPU)");
  app.add_option("--precision", precisions, "fp32, tf32, fp16 or bf16; a comma list runs each")
      ->capture_default_str();
  app.add_option("--reps", config.repetitions, "timed repetitions")->capture_default_str();
  app.add_option("--warmup", config.warmup, "untimed repetitions first")->capture_default_str();
  app.add_option("--seed", config.seed, "seed of the random inputs")->capture_default_str();
  add_common_options(app, common);
  if (auto code = parse_command_line(app, argc, argv)) return *code;

  return run_guarded("conv-bench", [&] {
    if (list) {
      list_layers();
      return 0;
    }
    config.precisions = parse_precisions(precisions);
    if (config.repetitions < 1) throw UsageError("--reps must be at least 1");
    if (config.warmup < 0) throw UsageError("--warmup must not be negative");
    if (batch < 0 || batch > 65536) throw UsageError("--batch must be between 1 and 65536");
    const Device device = select_device(common, "conv-bench");
    if (batch == 0) batch = device.kind == DeviceKind::cuda ? 32 : 2;
    config.layers = pick_layers(layers, batch);
    for (const ConvShape& s : config.layers) validate(s);
    ResultWriter writer(std::cout, "conv-bench", device_json(device));
#if GKEBUILD_WITH_CUDNN
    if (device.kind == DeviceKind::cuda) return run_cudnn_conv(config, device, writer);
#else
    if (device.kind == DeviceKind::cuda) {
      throw RunError("this build has no cuDNN; use --device cpu");
    }
#endif
    return run_cpu_conv(config, device, writer);
  });
}
