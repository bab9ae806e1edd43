// cuDNN handles and descriptors owned RAII-style, and the status check.
#pragma once

#include <cudnn.h>

#include <string>

#include "workloads/common/errors.h"

namespace gkebuild::workloads {

inline void check_cudnn(cudnnStatus_t status, const std::string& what) {
  if (status == CUDNN_STATUS_SUCCESS) return;
  throw RunError(what + ": " + cudnnGetErrorString(status));
}

// One cuDNN object type: created in the constructor, destroyed in the destructor.
template <typename T, cudnnStatus_t (*Create)(T*), cudnnStatus_t (*Destroy)(T)>
class CudnnObject {
 public:
  CudnnObject() { check_cudnn(Create(&object_), "creating a cuDNN object"); }
  ~CudnnObject() { Destroy(object_); }
  CudnnObject(const CudnnObject&) = delete;
  CudnnObject& operator=(const CudnnObject&) = delete;
  T get() const { return object_; }

 private:
  T object_{};
};

using CudnnHandle = CudnnObject<cudnnHandle_t, cudnnCreate, cudnnDestroy>;
using TensorDescriptor =
    CudnnObject<cudnnTensorDescriptor_t, cudnnCreateTensorDescriptor, cudnnDestroyTensorDescriptor>;
using FilterDescriptor =
    CudnnObject<cudnnFilterDescriptor_t, cudnnCreateFilterDescriptor, cudnnDestroyFilterDescriptor>;
using ConvolutionDescriptor = CudnnObject<cudnnConvolutionDescriptor_t, cudnnCreateConvolutionDescriptor,
                                          cudnnDestroyConvolutionDescriptor>;

}  // namespace gkebuild::workloads
