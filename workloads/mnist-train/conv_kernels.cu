// The CNN's element-wise, reduction and pooling kernels. Launch errors surface at the
// caller's check (cudnn_conv_ops.cpp checks cudaGetLastError after every launch).
#include <cuda_fp16.h>

#include "workloads/mnist-train/conv_kernels.h"

namespace gkebuild::workloads::kernels {
namespace {

constexpr int kThreads = 256;

int blocks_for(std::size_t count) { return static_cast<int>((count + kThreads - 1) / kThreads); }

__device__ std::size_t thread_index() { return blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; }

__global__ void to_half_kernel(const float* x, __half* half, std::size_t count, float scale) {
  const std::size_t i = thread_index();
  if (i < count) half[i] = __float2half_rn(scale * x[i]);
}

__global__ void to_float_kernel(const __half* half, float* x, std::size_t count, float scale) {
  const std::size_t i = thread_index();
  if (i < count) x[i] = scale * __half2float(half[i]);
}

__global__ void channel_bias_relu_kernel(float* y, const float* bias, std::size_t count, int channels, int plane) {
  const std::size_t i = thread_index();
  if (i >= count) return;
  y[i] = fmaxf(y[i] + bias[(i / plane) % channels], 0.0f);
}

// One block a channel: each thread sums a strided part, then a tree in shared memory.
__global__ void channel_sums_kernel(const float* dy, int rows, int channels, int plane, float* sums) {
  __shared__ float partial[kThreads];
  const int c = blockIdx.x;
  float sum = 0;
  const int per_channel = rows * plane;
  for (int j = threadIdx.x; j < per_channel; j += blockDim.x) {
    const int n = j / plane;
    sum += dy[(static_cast<std::size_t>(n) * channels + c) * plane + j % plane];
  }
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) sums[c] = partial[0];
}

// The index of the first maximum (row-major) of the window whose output is `out`.
__device__ std::size_t window_max(const float* x, std::size_t out, int height, int width) {
  const int P = height / 2, Q = width / 2;
  const std::size_t plane = out / (static_cast<std::size_t>(P) * Q);
  const int p = static_cast<int>(out / Q % P), q = static_cast<int>(out % Q);
  const std::size_t corner = (plane * height + 2 * p) * width + 2 * q;
  std::size_t best = corner;
  const std::size_t others[3] = {corner + 1, corner + width, corner + width + 1};
  for (std::size_t at : others) best = x[at] > x[best] ? at : best;
  return best;
}

__global__ void max_pool_kernel(const float* x, float* y, std::size_t outputs, int height, int width) {
  const std::size_t out = thread_index();
  if (out < outputs) y[out] = x[window_max(x, out, height, width)];
}

// Windows do not overlap: each thread writes the four entries of its own window.
__global__ void max_pool_backward_kernel(const float* x, const float* dy, float* dx, std::size_t outputs, int height,
                                         int width) {
  const std::size_t out = thread_index();
  if (out >= outputs) return;
  const std::size_t best = window_max(x, out, height, width);
  const int P = height / 2, Q = width / 2;
  const std::size_t plane = out / (static_cast<std::size_t>(P) * Q);
  const int p = static_cast<int>(out / Q % P), q = static_cast<int>(out % Q);
  const std::size_t corner = (plane * height + 2 * p) * width + 2 * q;
  const std::size_t all[4] = {corner, corner + 1, corner + width, corner + width + 1};
  for (std::size_t at : all) dx[at] = at == best ? dy[out] : 0.0f;
}

}  // namespace

void to_half(const float* x, std::uint16_t* half, std::size_t count, float scale) {
  to_half_kernel<<<blocks_for(count), kThreads>>>(x, reinterpret_cast<__half*>(half), count, scale);
}

void to_float(const std::uint16_t* half, float* x, std::size_t count, float scale) {
  to_float_kernel<<<blocks_for(count), kThreads>>>(reinterpret_cast<const __half*>(half), x, count, scale);
}

void channel_bias_relu(float* y, const float* bias, int rows, int channels, int plane) {
  const std::size_t count = static_cast<std::size_t>(rows) * channels * plane;
  channel_bias_relu_kernel<<<blocks_for(count), kThreads>>>(y, bias, count, channels, plane);
}

void channel_sums(const float* dy, int rows, int channels, int plane, float* sums) {
  channel_sums_kernel<<<channels, kThreads>>>(dy, rows, channels, plane, sums);
}

void max_pool(const float* x, float* y, int planes, int height, int width) {
  const std::size_t outputs = static_cast<std::size_t>(planes) * (height / 2) * (width / 2);
  max_pool_kernel<<<blocks_for(outputs), kThreads>>>(x, y, outputs, height, width);
}

void max_pool_backward(const float* x, const float* dy, float* dx, int planes, int height, int width) {
  const std::size_t outputs = static_cast<std::size_t>(planes) * (height / 2) * (width / 2);
  max_pool_backward_kernel<<<blocks_for(outputs), kThreads>>>(x, dy, dx, outputs, height, width);
}

}  // namespace gkebuild::workloads::kernels
