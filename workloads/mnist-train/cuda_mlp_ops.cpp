#include "workloads/mnist-train/cuda_mlp_ops.h"

#include <deque>

#include "workloads/common/cublas_check.h"
#include "workloads/common/device_buffer.h"
#include "workloads/mnist-train/mlp_kernels.h"

namespace gkebuild::workloads {
namespace {

cublasOperation_t op(Transpose t) { return t == Transpose::yes ? CUBLAS_OP_T : CUBLAS_OP_N; }

void check_launch(const char* kernel) { check_cuda(cudaGetLastError(), kernel); }

struct DeviceSet {
  explicit DeviceSet(const MnistSet& set)
      : pixels(set.pixels.size()), labels(set.labels.size()), size(static_cast<int>(set.pixels_per_image())) {
    pixels.upload(set.pixels);
    labels.upload(set.labels);
  }
  DeviceBuffer<std::uint8_t> pixels, labels;
  int size;
};

class CudaMlpOps final : public MlpOps {
 public:
  CudaMlpOps(int device, Precision precision)
      : device_((check_cuda(cudaSetDevice(device), "cudaSetDevice"), device)), precision_(precision) {
    reset_totals();
  }

  float* floats(std::size_t count) override { return floats_.emplace_back(count).get(); }
  int* ints(std::size_t count) override { return ints_.emplace_back(count).get(); }
  void upload(float* device, const std::vector<float>& host) override {
    check_cuda(cudaMemcpy(device, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice), "upload");
  }
  std::vector<float> download(const float* device, std::size_t count) override {
    std::vector<float> host(count);
    check_cuda(cudaMemcpy(host.data(), device, count * sizeof(float), cudaMemcpyDeviceToHost), "download");
    return host;
  }

  int add_dataset(const MnistSet& set) override {
    require_device_memory(device_, set.pixels.size() + set.labels.size(), "the data set");
    sets_.emplace_back(set);
    return static_cast<int>(sets_.size()) - 1;
  }

  void gather(int dataset, const std::int32_t* indices, int count, float* x, int* y) override {
    if (!indices_ || indices_->size() < static_cast<std::size_t>(count)) {
      indices_ = std::make_unique<DeviceBuffer<std::int32_t>>(static_cast<std::size_t>(count));
    }
    indices_->upload(indices, static_cast<std::size_t>(count));
    const DeviceSet& set = sets_[static_cast<std::size_t>(dataset)];
    kernels::gather(set.pixels.get(), set.labels.get(), indices_->get(), count, set.size, x, y);
    check_launch("gather kernel");
  }

  // Row-major C = op(A)·op(B) is column-major Cᵀ = op(B)ᵀ·op(A)ᵀ: swap the operands. FP32 data
  // and result in every precision (the master weights stay FP32); TF32 and FP16 let cuBLAS
  // round the inputs for the tensor cores.
  void gemm(Transpose ta, Transpose tb, int m, int n, int k, const float* a, int lda, const float* b, int ldb,
            float beta, float* c, int ldc) override {
    const float one = 1.0f;
    if (precision_ == Precision::fp32) {
      check_cublas(cublasSgemm(blas_.get(), op(tb), op(ta), n, m, k, &one, b, ldb, a, lda, &beta, c, ldc),
                   "cublasSgemm");
      return;
    }
    const cublasComputeType_t compute =
        precision_ == Precision::tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F_FAST_16F;
    check_cublas(cublasGemmEx(blas_.get(), op(tb), op(ta), n, m, k, &one, b, CUDA_R_32F, ldb, a, CUDA_R_32F, lda,
                              &beta, c, CUDA_R_32F, ldc, compute, CUBLAS_GEMM_DEFAULT),
                 "cublasGemmEx " + to_string(precision_));
  }

  void add_bias(float* x, const float* bias, int rows, int cols, bool relu) override {
    kernels::add_bias(x, bias, rows, cols, relu);
    check_launch("bias kernel");
  }

  void softmax_cross_entropy(const float* logits, const int* y, int rows, int classes, float scale,
                             float* grad) override {
    kernels::softmax_cross_entropy(logits, y, rows, classes, scale, grad, loss_.get(), correct_.get());
    check_launch("softmax kernel");
  }

  void relu_backward(float* grad, const float* activation, std::size_t count) override {
    kernels::relu_backward(grad, activation, count);
    check_launch("ReLU backward kernel");
  }

  void column_sums(const float* x, int rows, int cols, float* sums) override {
    kernels::column_sums(x, rows, cols, sums);
    check_launch("column sum kernel");
  }

  void sgd_step(float* param, const float* grad, float* velocity, std::size_t count, float lr,
                float momentum) override {
    kernels::sgd_step(param, grad, velocity, count, lr, momentum);
    check_launch("SGD kernel");
  }

  void reset_totals() override {
    check_cuda(cudaMemset(loss_.get(), 0, sizeof(double)), "cudaMemset");
    check_cuda(cudaMemset(correct_.get(), 0, sizeof(unsigned long long)), "cudaMemset");
  }

  BatchTotals totals() override {
    const double loss = loss_.download()[0];
    const unsigned long long correct = correct_.download()[0];
    return {loss, static_cast<std::int64_t>(correct)};
  }

 private:
  int device_;
  Precision precision_;
  CublasHandle blas_;
  DeviceBuffer<double> loss_{1};
  DeviceBuffer<unsigned long long> correct_{1};
  std::deque<DeviceBuffer<float>> floats_;
  std::deque<DeviceBuffer<int>> ints_;
  std::deque<DeviceSet> sets_;
  std::unique_ptr<DeviceBuffer<std::int32_t>> indices_;
};

}  // namespace

std::unique_ptr<MlpOps> make_cuda_mlp_ops(int device, Precision precision) {
  return std::make_unique<CudaMlpOps>(device, precision);
}

}  // namespace gkebuild::workloads
