// Device memory owned like a std::vector's, freed on every exit path. CUDA builds only.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <vector>

#include "workloads/common/cuda_device.h"

namespace gkebuild::workloads {

template <typename T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    void* raw = nullptr;
    check_cuda(cudaMalloc(&raw, count * sizeof(T)),
               "cudaMalloc of " + std::to_string(count * sizeof(T)) + " bytes");
    data_ = static_cast<T*>(raw);
  }
  ~DeviceBuffer() { cudaFree(data_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* get() const { return data_; }
  std::size_t size() const { return count_; }

  void upload(const T* host, std::size_t count) {
    check_cuda(cudaMemcpy(data_, host, count * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy to device");
  }
  void upload(const std::vector<T>& host) { upload(host.data(), host.size()); }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    check_cuda(cudaMemcpy(host.data(), data_, count_ * sizeof(T), cudaMemcpyDeviceToHost),
               "cudaMemcpy to host");
    return host;
  }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace gkebuild::workloads
