// gemm-bench on cuBLAS: cublasGemmEx in FP32, TF32 (FP32 data, tensor cores), FP16 and BF16
// (16-bit data and result, FP32 accumulation), timed with CUDA events.
#include "base/exit_codes.h"
#include "workloads/common/cublas_check.h"
#include "workloads/common/cuda_timer.h"
#include "workloads/common/device_buffer.h"
#include "workloads/common/device_format.h"
#include "workloads/common/errors.h"
#include "workloads/common/random_values.h"
#include "workloads/gemm-bench/gemm_check.h"
#include "workloads/gemm-bench/gemm_report.h"
#include "workloads/gemm-bench/gemm_runs.h"

namespace gkebuild::workloads {
namespace {

struct Operands {
  cudaDataType type;  // of A, B and C
  cublasComputeType_t compute;
};

Operands operands_for(Precision p) {
  switch (p) {
    case Precision::fp32: return {CUDA_R_32F, CUBLAS_COMPUTE_32F};
    case Precision::tf32: return {CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32};
    case Precision::fp16: return {CUDA_R_16F, CUBLAS_COMPUTE_32F};
    case Precision::bf16: return {CUDA_R_16BF, CUBLAS_COMPUTE_32F};
  }
  throw RunError("unhandled precision");
}

bool run_precision(const GemmConfig& c, Precision precision, const Device& device,
                   ResultWriter& writer) {
  const Operands op = operands_for(precision);
  const std::size_t bytes = element_bytes(precision);
  const double need = static_cast<double>(bytes) * (c.m * c.k + c.k * c.n + c.m * c.n);
  require_device_memory(device.index, static_cast<std::size_t>(need), "gemm-bench " + to_string(precision));
  auto a = random_values(c.m * c.k, c.seed);
  auto b = random_values(c.k * c.n, c.seed + 1);
  DeviceBuffer<unsigned char> da(a.size() * bytes), db(b.size() * bytes),
      dc(static_cast<std::size_t>(c.m * c.n) * bytes);
  da.upload(encode_values(a, precision));
  db.upload(encode_values(b, precision));
  CublasHandle handle;
  const float alpha = 1.0f;
  const float beta = 0.0f;
  // Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ: swap the operands, no transposes.
  auto multiply = [&] {
    check_cublas(cublasGemmEx(handle.get(), CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(c.n),
                              static_cast<int>(c.m), static_cast<int>(c.k), &alpha, db.get(), op.type,
                              static_cast<int>(c.n), da.get(), op.type, static_cast<int>(c.k), &beta,
                              dc.get(), op.type, static_cast<int>(c.n), op.compute,
                              CUBLAS_GEMM_DEFAULT),
                 "cublasGemmEx " + to_string(precision));
  };
  for (int i = 0; i < c.warmup; ++i) multiply();
  check_cuda(cudaDeviceSynchronize(), "warm-up");
  CudaTimer timer;
  std::vector<double> seconds;
  for (int i = 0; i < c.repetitions; ++i) {
    timer.start();
    multiply();
    seconds.push_back(timer.stop());
  }
  const auto result = decode_values(dc.download(), precision);
  const GemmCheck check = check_gemm_sample(a, b, result, c.m, c.n, c.k, c.check_samples, precision, c.seed);
  return report_gemm(writer, c, precision, seconds, check, {{"library", "cublasGemmEx"}});
}

}  // namespace

int run_cuda_gemm(const GemmConfig& config, const Device& device, ResultWriter& writer) {
  check_cuda(cudaSetDevice(device.index), "cudaSetDevice");
  bool all_passed = true;
  for (Precision p : config.precisions) all_passed = run_precision(config, p, device, writer) && all_passed;
  return all_passed ? cli::kExitSuccess : cli::kExitFailure;
}

}  // namespace gkebuild::workloads
