// ConvOps on the CPU: the whole batch unfolded (im2col) and multiplied with the blocked SGEMM;
// the reference the cuDNN path is checked against.
#pragma once

#include <memory>

#include "workloads/mnist-train/conv_ops.h"

namespace gkebuild::workloads {

std::unique_ptr<ConvOps> make_cpu_conv_ops(int threads);

}  // namespace gkebuild::workloads
