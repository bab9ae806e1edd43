// gemm-bench: matrix-product throughput on cuBLAS (FP32, TF32, FP16, BF16) or on the CPU.
// Result lines (JSON) on stdout, progress on stderr.
#include <iostream>

#include "workloads/common/device.h"
#include "workloads/common/program.h"
#include "workloads/common/results.h"
#include "workloads/gemm-bench/gemm_runs.h"

using namespace gkebuild::workloads;

int main(int argc, char** argv) {
  CLI::App app("Measure matrix-product throughput: C(m×n) = A(m×k)·B(k×n)", "gemm-bench");
  GemmConfig config;
  CommonOptions common;
  std::vector<std::string> precisions{"fp32"};
  app.add_option("--m", config.m, "rows of A and C")->capture_default_str();
  app.add_option("--n", config.n, "columns of B and C")->capture_default_str();
  app.add_option("--k", config.k, "columns of A, rows of B")->capture_default_str();
  app.add_option("--precision", precisions, "fp32, tf32, fp16 or bf16; a comma list runs each")
      ->capture_default_str();
  app.add_option("--reps", config.repetitions, "timed repetitions")->capture_default_str();
  app.add_option("--warmup", config.warmup, "untimed repetitions first")->capture_default_str();
  app.add_option("--check-samples", config.check_samples, "entries of C checked against a reference")
      ->capture_default_str();
  app.add_option("--seed", config.seed, "seed of the random inputs")->capture_default_str();
  add_common_options(app, common);
  if (auto code = parse_command_line(app, argc, argv)) return *code;

  return run_guarded("gemm-bench", [&] {
    config.precisions = parse_precisions(precisions);
    validate(config);
    const Device device = select_device(common, "gemm-bench");
    ResultWriter writer(std::cout, "gemm-bench", device_json(device));
#if GKEBUILD_WITH_CUDA
    if (device.kind == DeviceKind::cuda) return run_cuda_gemm(config, device, writer);
#endif
    return run_cpu_gemm(config, device, writer);
  });
}
