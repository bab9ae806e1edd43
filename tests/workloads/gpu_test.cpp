// The CUDA paths against the CPU references: cuBLAS GEMM in every precision, cuDNN
// convolution, and MLP training on cuBLAS + own kernels step for step against the CPU.
// Skipped, with the reason, where no CUDA device is visible.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "common/device.h"
#include "conv-bench/conv_runs.h"
#include "gemm-bench/gemm_runs.h"
#include "mnist-synth/synth.h"
#include "mnist-train/cpu_mlp_ops.h"
#include "mnist-train/cuda_mlp_ops.h"
#include "mnist-train/mlp_trainer.h"

namespace gkebuild::workloads {
namespace {

class Gpu : public ::testing::Test {
 protected:
  void SetUp() override {
    const CudaAvailability cuda = cuda_availability();
    if (cuda.count == 0) GTEST_SKIP() << "no CUDA device: " << cuda.reason;
  }
  const Device device{DeviceKind::cuda, 0, 2, "cuda:0"};

  // The "max_error" lines of `out`, each of which must say it passed.
  static int passed_checks(const std::string& out) {
    std::istringstream lines(out);
    std::string line;
    int passed = 0;
    while (std::getline(lines, line)) {
      const auto j = nlohmann::json::parse(line);
      if (j["metric"] == "max_error" && j["extra"]["passed"] == true) ++passed;
    }
    return passed;
  }
};

TEST_F(Gpu, CublasGemmMatchesTheReferenceInEveryPrecision) {
  GemmConfig config;
  config.m = 257;
  config.n = 130;
  config.k = 95;
  config.precisions = {Precision::fp32, Precision::tf32, Precision::fp16, Precision::bf16};
  config.repetitions = 2;
  config.check_samples = 1000;
  std::ostringstream out;
  ResultWriter writer(out, "gemm-bench", device_json(device));
  EXPECT_EQ(run_cuda_gemm(config, device, writer), 0);
  EXPECT_EQ(passed_checks(out.str()), 4) << out.str();
}

TEST_F(Gpu, CudnnConvolutionMatchesTheDirectLoop) {
  ConvConfig config;
  config.layers = {resnet50_layers(2)[8]};  // res5_3x3
  config.precisions = {Precision::fp32, Precision::fp16};
  config.repetitions = 2;
  std::ostringstream out;
  ResultWriter writer(out, "conv-bench", device_json(device));
  EXPECT_EQ(run_cudnn_conv(config, device, writer), 0);
  EXPECT_EQ(passed_checks(out.str()), 2) << out.str();
}

TEST_F(Gpu, CudaTrainingFollowsTheCpuStepForStep) {
  const MnistSet train = synthesize_mnist({512, 1, 0.5});
  const MlpModel start = init_mlp(784, 32, 10, 3);
  auto train_one_epoch = [&](MlpOps& ops) {
    const int id = ops.add_dataset(train);
    MlpTrainer trainer(ops, start, 64);
    std::mt19937_64 rng(5);
    trainer.train_epoch(id, train.count(), rng, 0.1f);
    return trainer.model();
  };
  auto cpu_ops = make_cpu_mlp_ops(2);
  auto cuda_ops = make_cuda_mlp_ops(0);
  const MlpModel on_cpu = train_one_epoch(*cpu_ops);
  const MlpModel on_gpu = train_one_epoch(*cuda_ops);
  double worst = 0;
  for (std::size_t i = 0; i < on_cpu.w1.size(); ++i) worst = std::max(worst, double(std::fabs(on_cpu.w1[i] - on_gpu.w1[i])));
  for (std::size_t i = 0; i < on_cpu.w2.size(); ++i) worst = std::max(worst, double(std::fabs(on_cpu.w2[i] - on_gpu.w2[i])));
  EXPECT_LT(worst, 1e-3);
}

}  // namespace
}  // namespace gkebuild::workloads
