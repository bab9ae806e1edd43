// MlpOps on the CPU: loops, and the blocked SGEMM for the products.
#pragma once

#include <memory>

#include "workloads/mnist-train/mlp_ops.h"

namespace gkebuild::workloads {

std::unique_ptr<MlpOps> make_cpu_mlp_ops(int threads);

}  // namespace gkebuild::workloads
