// MlpOps on a CUDA device: cuBLAS for the products, mlp_kernels.cu for the rest.
#pragma once

#include <memory>

#include "mnist-train/mlp_ops.h"

namespace gkebuild::workloads {

std::unique_ptr<MlpOps> make_cuda_mlp_ops(int device);

}  // namespace gkebuild::workloads
