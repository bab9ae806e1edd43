// cuBLAS status checks, header-only so that only the workloads using cuBLAS link it.
#pragma once

#include <cublas_v2.h>

#include <string>

#include "workloads/common/errors.h"

namespace gkebuild::workloads {

inline void check_cublas(cublasStatus_t status, const std::string& what) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  throw RunError(what + ": " + cublasGetStatusName(status) + " (" + cublasGetStatusString(status) + ")");
}

// Owns a cuBLAS handle.
class CublasHandle {
 public:
  CublasHandle() { check_cublas(cublasCreate(&handle_), "cublasCreate"); }
  ~CublasHandle() { cublasDestroy(handle_); }
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  cublasHandle_t get() const { return handle_; }

 private:
  cublasHandle_t handle_ = nullptr;
};

}  // namespace gkebuild::workloads
