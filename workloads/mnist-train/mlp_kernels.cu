// The MLP's element-wise and reduction kernels. Launch errors surface at the caller's next
// check (cuda_mlp_ops.cpp checks cudaGetLastError after every launch).
#include "workloads/mnist-train/mlp_kernels.h"

namespace gkebuild::workloads::kernels {
namespace {

constexpr int kThreads = 256;

int blocks_for(std::size_t count) { return static_cast<int>((count + kThreads - 1) / kThreads); }

__global__ void gather_kernel(const std::uint8_t* pixels, const std::uint8_t* labels, const std::int32_t* indices,
                              int count, int size, float* x, int* y) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= static_cast<std::size_t>(count) * size) return;
  const std::size_t row = i / size;
  const std::size_t item = static_cast<std::size_t>(indices[row]);
  x[i] = pixels[item * size + i % size] * (1.0f / 255.0f);
  if (i % size == 0) y[row] = labels[item];
}

__global__ void add_bias_kernel(float* x, const float* bias, int rows, int cols, bool relu) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= static_cast<std::size_t>(rows) * cols) return;
  const float v = x[i] + bias[i % cols];
  x[i] = relu ? fmaxf(v, 0.0f) : v;
}

// One thread a row: the class count is small (10).
__global__ void softmax_kernel(const float* logits, const int* y, int rows, int classes, float scale, float* grad,
                               double* loss_sum, unsigned long long* correct) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const float* z = logits + static_cast<std::size_t>(row) * classes;
  int best = 0;
  for (int j = 1; j < classes; ++j) best = z[j] > z[best] ? j : best;
  double sum = 0;
  for (int j = 0; j < classes; ++j) sum += exp(static_cast<double>(z[j] - z[best]));
  const int label = y[row];
  atomicAdd(loss_sum, log(sum) - (z[label] - z[best]));
  if (best == label) atomicAdd(correct, 1ULL);
  for (int j = 0; j < classes; ++j) {
    const double p = exp(static_cast<double>(z[j] - z[best])) / sum;
    grad[static_cast<std::size_t>(row) * classes + j] = static_cast<float>(scale * (p - (j == label ? 1.0 : 0.0)));
  }
}

__global__ void relu_backward_kernel(float* grad, const float* activation, std::size_t count) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < count && activation[i] <= 0.0f) grad[i] = 0.0f;
}

// One thread a column; consecutive threads read consecutive addresses of a row.
__global__ void column_sums_kernel(const float* x, int rows, int cols, float* sums) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col >= cols) return;
  float sum = 0;
  for (int r = 0; r < rows; ++r) sum += x[static_cast<std::size_t>(r) * cols + col];
  sums[col] = sum;
}

// Separate multiply and add (no FMA contraction), as the CPU path computes it.
__global__ void sgd_kernel(float* param, const float* grad, float* velocity, std::size_t count, float lr,
                           float momentum) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  const float v = __fadd_rn(__fmul_rn(momentum, velocity[i]), grad[i]);
  velocity[i] = v;
  param[i] = __fsub_rn(param[i], __fmul_rn(lr, v));
}

}  // namespace

void gather(const std::uint8_t* pixels, const std::uint8_t* labels, const std::int32_t* indices, int count,
            int pixels_per_image, float* x, int* y) {
  const std::size_t total = static_cast<std::size_t>(count) * pixels_per_image;
  gather_kernel<<<blocks_for(total), kThreads>>>(pixels, labels, indices, count, pixels_per_image, x, y);
}

void add_bias(float* x, const float* bias, int rows, int cols, bool relu) {
  add_bias_kernel<<<blocks_for(static_cast<std::size_t>(rows) * cols), kThreads>>>(x, bias, rows, cols, relu);
}

void softmax_cross_entropy(const float* logits, const int* y, int rows, int classes, float scale, float* grad,
                           double* loss_sum, unsigned long long* correct) {
  softmax_kernel<<<blocks_for(static_cast<std::size_t>(rows)), kThreads>>>(logits, y, rows, classes, scale, grad,
                                                                           loss_sum, correct);
}

void relu_backward(float* grad, const float* activation, std::size_t count) {
  relu_backward_kernel<<<blocks_for(count), kThreads>>>(grad, activation, count);
}

void column_sums(const float* x, int rows, int cols, float* sums) {
  column_sums_kernel<<<blocks_for(static_cast<std::size_t>(cols)), kThreads>>>(x, rows, cols, sums);
}

void sgd_step(float* param, const float* grad, float* velocity, std::size_t count, float lr, float momentum) {
  sgd_kernel<<<blocks_for(count), kThreads>>>(param, grad, velocity, count, lr, momentum);
}

}  // namespace gkebuild::workloads::kernels
