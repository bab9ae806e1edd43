// Launchers of the CNN's own CUDA kernels (conv_kernels.cu): what cuDNN's convolutions leave
// to do. Plain C++ declarations (FP16 data as its bits), so callers need no nvcc.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gkebuild::workloads::kernels {

// half[i] = FP16(scale·x[i]), rounded to nearest; x[i] = scale·FP32(half[i]).
void to_half(const float* x, std::uint16_t* half, std::size_t count, float scale);
void to_float(const std::uint16_t* half, float* x, std::size_t count, float scale);
// y(n, c, i) = max(0, y(n, c, i) + bias[c]) over rows × channels planes of `plane` values.
void channel_bias_relu(float* y, const float* bias, int rows, int channels, int plane);
// sums[c] = Σ over n and i of dy(n, c, i), one block per channel in a fixed order.
void channel_sums(const float* dy, int rows, int channels, int plane, float* sums);
// 2×2 max pooling, stride 2, of `planes` planes of height × width; backward writes dx
// entirely (0 but at each window's first maximum).
void max_pool(const float* x, float* y, int planes, int height, int width);
void max_pool_backward(const float* x, const float* dy, float* dx, int planes, int height, int width);

}  // namespace gkebuild::workloads::kernels
