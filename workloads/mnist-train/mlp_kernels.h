// Launchers of the MLP's own CUDA kernels (mlp_kernels.cu): everything but the matrix
// products, which cuBLAS does. Plain C++ declarations, so callers need no nvcc.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gkebuild::workloads::kernels {

void gather(const std::uint8_t* pixels, const std::uint8_t* labels, const std::int32_t* indices, int count,
            int pixels_per_image, float* x, int* y);
void add_bias(float* x, const float* bias, int rows, int cols, bool relu);
void softmax_cross_entropy(const float* logits, const int* y, int rows, int classes, float scale, float* grad,
                           double* loss_sum, unsigned long long* correct);
void relu_backward(float* grad, const float* activation, std::size_t count);
void column_sums(const float* x, int rows, int cols, float* sums);
void sgd_step(float* param, const float* grad, float* velocity, std::size_t count, float lr, float momentum);

}  // namespace gkebuild::workloads::kernels
