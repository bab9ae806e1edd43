// The two ways gemm-bench measures: the CPU path and cuBLAS. Each returns the exit code.
#pragma once

#include "workloads/common/device.h"
#include "workloads/common/results.h"
#include "workloads/gemm-bench/gemm_config.h"

namespace gkebuild::workloads {

int run_cpu_gemm(const GemmConfig& config, const Device& device, ResultWriter& writer);

#if GKEBUILD_WITH_CUDA
int run_cuda_gemm(const GemmConfig& config, const Device& device, ResultWriter& writer);
#endif

}  // namespace gkebuild::workloads
