// MlpOps on a CUDA device: cuBLAS for the products, mlp_kernels.cu for the rest.
#pragma once

#include <memory>

#include "workloads/common/precision.h"
#include "workloads/mnist-train/mlp_ops.h"

namespace gkebuild::workloads {

// fp32, tf32 or fp16: the compute type of the matrix products.
std::unique_ptr<MlpOps> make_cuda_mlp_ops(int device, Precision precision = Precision::fp32);

}  // namespace gkebuild::workloads
