// Times work on the GPU with CUDA events, which measure the device, not the launch.
#pragma once

#include <cuda_runtime_api.h>

#include "workloads/common/cuda_device.h"

namespace gkebuild::workloads {

class CudaTimer {
 public:
  CudaTimer() {
    check_cuda(cudaEventCreate(&start_), "cudaEventCreate");
    check_cuda(cudaEventCreate(&stop_), "cudaEventCreate");
  }
  ~CudaTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  CudaTimer(const CudaTimer&) = delete;
  CudaTimer& operator=(const CudaTimer&) = delete;

  void start(cudaStream_t stream = nullptr) { check_cuda(cudaEventRecord(start_, stream), "cudaEventRecord"); }
  // Waits for the work since start() and returns its duration in seconds.
  double stop(cudaStream_t stream = nullptr) {
    check_cuda(cudaEventRecord(stop_, stream), "cudaEventRecord");
    check_cuda(cudaEventSynchronize(stop_), "the timed GPU work");
    float ms = 0;
    check_cuda(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
    return ms / 1e3;
  }

 private:
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

}  // namespace gkebuild::workloads
