#include <cuda_runtime.h>

#include "saxpy.h"

__global__ void saxpy_kernel(int n, float a, const float* x, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

bool saxpy_gpu(float a, const std::vector<float>& x, std::vector<float>& y, std::string& device, std::string& why) {
  int count = 0;
  // Without a driver (no GPU, or a container without /usr/local/nvidia) this fails: CPU path.
  if (cudaError_t error = cudaGetDeviceCount(&count); error != cudaSuccess || count == 0) {
    why = error != cudaSuccess ? cudaGetErrorString(error) : "no CUDA device";
    return false;
  }
  cudaDeviceProp properties{};
  cudaGetDeviceProperties(&properties, 0);
  device = properties.name;
  const int n = static_cast<int>(x.size());
  const std::size_t bytes = x.size() * sizeof(float);
  float* dx = nullptr;
  float* dy = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dy, bytes);
  cudaMemcpy(dx, x.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), bytes, cudaMemcpyHostToDevice);
  saxpy_kernel<<<(n + 255) / 256, 256>>>(n, a, dx, dy);
  // "no kernel image is available" lands here when the binary lacks this GPU's architecture.
  cudaError_t error = cudaGetLastError();
  if (error == cudaSuccess) error = cudaMemcpy(y.data(), dy, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  if (error != cudaSuccess) {
    why = cudaGetErrorString(error);
    return false;
  }
  return true;
}
