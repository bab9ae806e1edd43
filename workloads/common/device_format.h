// Host-side conversion between float and the element format a precision stores on the GPU
// (FP32 for fp32/tf32, IEEE half, bfloat16). CUDA builds only.
#pragma once

#include <cstddef>
#include <vector>

#include "workloads/common/precision.h"

namespace gkebuild::workloads {

std::size_t element_bytes(Precision precision);

// The values as the device stores them; `values` is rounded in place to what the GPU sees,
// so a CPU reference computes with the same inputs.
std::vector<unsigned char> encode_values(std::vector<float>& values, Precision precision);

std::vector<float> decode_values(const std::vector<unsigned char>& bytes, Precision precision);

}  // namespace gkebuild::workloads
