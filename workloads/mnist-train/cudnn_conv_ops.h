// ConvOps on a CUDA device: cuDNN's forward, backward-data and backward-filter convolutions
// (algorithms from cuDNN's heuristics, deterministic ones preferred), conv_kernels.cu for
// bias, ReLU, pooling and FP16 conversion. FP16 keeps FP32 master weights and activations
// between layers: operands are rounded to FP16 for each convolution, gradients scaled by
// kFp16LossScale while in FP16.
#pragma once

#include <memory>

#include "workloads/common/precision.h"
#include "workloads/mnist-train/conv_ops.h"

namespace gkebuild::workloads {

inline constexpr float kFp16LossScale = 1024.0f;

// fp32 (no tensor cores), tf32 or fp16 (tensor cores).
std::unique_ptr<ConvOps> make_cudnn_conv_ops(int device, Precision precision);

}  // namespace gkebuild::workloads
