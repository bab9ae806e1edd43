// Convolution on the CPU: the direct seven-loop reference, and im2col + the blocked SGEMM.
#pragma once

#include <vector>

#include "workloads/conv-bench/conv_shape.h"

namespace gkebuild::workloads {

// The definition, loop by loop, in double precision. `magnitude` (if given) receives
// Σ|x·w| of every output, the scale against which an error is judged.
std::vector<float> conv_direct(const ConvShape& shape, const std::vector<float>& input,
                               const std::vector<float>& filter,
                               std::vector<double>* magnitude = nullptr);

// Each image unfolded into a (C·R·S)×(P·Q) matrix, multiplied by the K×(C·R·S) filters.
void conv_im2col(const ConvShape& shape, const float* input, const float* filter, float* output,
                 int threads);

// max |y - ref| / Σ|x·w| over all outputs.
double conv_max_error(const std::vector<float>& output, const std::vector<float>& reference,
                      const std::vector<double>& magnitude);

}  // namespace gkebuild::workloads
