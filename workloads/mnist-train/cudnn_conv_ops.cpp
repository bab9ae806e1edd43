#include "workloads/mnist-train/cudnn_conv_ops.h"

#include <algorithm>
#include <map>
#include <vector>

#include "workloads/common/cudnn_objects.h"
#include "workloads/common/device_buffer.h"
#include "workloads/mnist-train/conv_kernels.h"

namespace gkebuild::workloads {
namespace {

constexpr std::size_t kMaxWorkspace = std::size_t{256} << 20;

void check_launch(const char* kernel) { check_cuda(cudaGetLastError(), kernel); }

// What one call runs: the algorithm, its math type and workspace.
template <typename Algorithm>
struct Choice {
  Algorithm algorithm{};
  cudnnMathType_t math = CUDNN_DEFAULT_MATH;
  std::size_t workspace = 0;
};

// Whether an algorithm's math type computes in `precision`: FP32 without tensor cores; TF32
// without rounding FP32 data down to FP16 (ALLOW_CONVERSION); FP16 any.
bool computes_in(cudnnMathType_t math, Precision precision) {
  if (precision == Precision::fp32) return math == CUDNN_FMA_MATH || math == CUDNN_DEFAULT_MATH;
  if (precision == Precision::tf32) return math != CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION;
  return true;
}

// The first of cuDNN's ranked candidates that works within the workspace limit in `precision`,
// deterministic where one is (so a resumed run repeats an unbroken one).
template <typename Algorithm, typename Perf>
Choice<Algorithm> pick(const Perf* perf, int returned, Precision precision, const std::string& what) {
  auto usable = [&](const Perf& p, bool deterministic_only) {
    return p.status == CUDNN_STATUS_SUCCESS && p.memory <= kMaxWorkspace && computes_in(p.mathType, precision) &&
           (!deterministic_only || p.determinism == CUDNN_DETERMINISTIC);
  };
  for (bool deterministic_only : {true, false}) {
    for (int i = 0; i < returned; ++i) {
      if (!usable(perf[i], deterministic_only)) continue;
      const cudnnMathType_t math = precision == Precision::fp32 ? CUDNN_FMA_MATH : perf[i].mathType;
      return {perf[i].algo, math, perf[i].memory};
    }
  }
  throw RunError("cuDNN has no " + what + " algorithm for this layer in " + to_string(precision));
}

// The descriptors of one batch size, and its algorithms.
struct Plan {
  TensorDescriptor x, y;
  Choice<cudnnConvolutionFwdAlgo_t> forward;
  Choice<cudnnConvolutionBwdDataAlgo_t> backward_data;
  Choice<cudnnConvolutionBwdFilterAlgo_t> backward_filter;
};

struct Layer {
  Layer(const ConvGeometry& geometry, int max_rows, bool half)
      : g(geometry),
        x_half(half ? g.input_per_row() * max_rows : 1), y_half(half ? g.output_per_row() * max_rows : 1),
        w_half(half ? weights() : 1), dw_half(half ? weights() : 1) {}
  std::size_t weights() const { return static_cast<std::size_t>(g.filters) * g.channels * g.kernel * g.kernel; }

  ConvGeometry g;
  FilterDescriptor w;
  ConvolutionDescriptor conv;
  std::map<int, std::unique_ptr<Plan>> plans;  // by batch rows: the last batch may be smaller
  // FP16 copies of the operands (one element where FP16 is not used).
  DeviceBuffer<std::uint16_t> x_half, y_half, w_half, dw_half;
};

class CudnnConvOps final : public ConvOps {
 public:
  CudnnConvOps(int device, Precision precision)
      : precision_((check_cuda(cudaSetDevice(device), "cudaSetDevice"), precision)) {
    if (precision == Precision::bf16) throw UsageError("mnist-train trains in fp32, tf32 or fp16, not bf16");
  }

  int add_layer(const ConvGeometry& g, int max_rows) override {
    auto& l = *layers_.emplace_back(std::make_unique<Layer>(g, max_rows, half()));
    check_cudnn(cudnnSetFilter4dDescriptor(l.w.get(), data_type(), CUDNN_TENSOR_NCHW, g.filters, g.channels, g.kernel,
                                           g.kernel),
                "filter descriptor");
    check_cudnn(cudnnSetConvolution2dDescriptor(l.conv.get(), g.pad, g.pad, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                                CUDNN_DATA_FLOAT),
                "convolution descriptor");
    plan(l, max_rows);
    return static_cast<int>(layers_.size()) - 1;
  }

  void forward(int layer, int rows, const float* x, const float* w, const float* bias, float* y) override {
    Layer& l = *layers_[static_cast<std::size_t>(layer)];
    const Plan& p = plan(l, rows);
    const float one = 1.0f, zero = 0.0f;
    const void* xs = operand(x, l.x_half, l.g.input_per_row() * rows, 1.0f);
    const void* ws = operand(w, l.w_half, l.weights(), 1.0f);
    void* ys = half() ? static_cast<void*>(l.y_half.get()) : y;
    set_math(l, p.forward.math);
    check_cudnn(cudnnConvolutionForward(handle_.get(), &one, p.x.get(), xs, l.w.get(), ws, l.conv.get(),
                                        p.forward.algorithm, workspace(p.forward.workspace), p.forward.workspace,
                                        &zero, p.y.get(), ys),
                "cudnnConvolutionForward");
    const std::size_t outputs = l.g.output_per_row() * rows;
    if (half()) result(l.y_half, y, outputs, 1.0f);
    kernels::channel_bias_relu(y, bias, rows, l.g.filters, l.g.out_height() * l.g.out_width());
    check_launch("bias and ReLU kernel");
  }

  void backward_filter(int layer, int rows, const float* x, const float* dy, float* dw, float* dbias) override {
    Layer& l = *layers_[static_cast<std::size_t>(layer)];
    const Plan& p = plan(l, rows);
    const float one = 1.0f, zero = 0.0f;
    const void* xs = operand(x, l.x_half, l.g.input_per_row() * rows, 1.0f);
    const void* dys = operand(dy, l.y_half, l.g.output_per_row() * rows, kFp16LossScale);
    void* dws = half() ? static_cast<void*>(l.dw_half.get()) : dw;
    set_math(l, p.backward_filter.math);
    check_cudnn(cudnnConvolutionBackwardFilter(handle_.get(), &one, p.x.get(), xs, p.y.get(), dys, l.conv.get(),
                                               p.backward_filter.algorithm, workspace(p.backward_filter.workspace),
                                               p.backward_filter.workspace, &zero, l.w.get(), dws),
                "cudnnConvolutionBackwardFilter");
    if (half()) result(l.dw_half, dw, l.weights(), 1.0f / kFp16LossScale);
    kernels::channel_sums(dy, rows, l.g.filters, l.g.out_height() * l.g.out_width(), dbias);
    check_launch("bias gradient kernel");
  }

  void backward_data(int layer, int rows, const float* w, const float* dy, float* dx) override {
    Layer& l = *layers_[static_cast<std::size_t>(layer)];
    const Plan& p = plan(l, rows);
    const float one = 1.0f, zero = 0.0f;
    const void* ws = operand(w, l.w_half, l.weights(), 1.0f);
    const void* dys = operand(dy, l.y_half, l.g.output_per_row() * rows, kFp16LossScale);
    void* dxs = half() ? static_cast<void*>(l.x_half.get()) : dx;
    set_math(l, p.backward_data.math);
    check_cudnn(cudnnConvolutionBackwardData(handle_.get(), &one, l.w.get(), ws, p.y.get(), dys, l.conv.get(),
                                             p.backward_data.algorithm, workspace(p.backward_data.workspace),
                                             p.backward_data.workspace, &zero, p.x.get(), dxs),
                "cudnnConvolutionBackwardData");
    if (half()) result(l.x_half, dx, l.g.input_per_row() * rows, 1.0f / kFp16LossScale);
  }

  void max_pool(int rows, int channels, int height, int width, const float* x, float* y) override {
    kernels::max_pool(x, y, rows * channels, height, width);
    check_launch("max pool kernel");
  }

  void max_pool_backward(int rows, int channels, int height, int width, const float* x, const float* dy,
                         float* dx) override {
    if (height % 2 || width % 2) {  // the dropped last row or column gets no gradient
      check_cuda(cudaMemset(dx, 0, static_cast<std::size_t>(rows) * channels * height * width * sizeof(float)),
                 "cudaMemset");
    }
    kernels::max_pool_backward(x, dy, dx, rows * channels, height, width);
    check_launch("max pool backward kernel");
  }

 private:
  bool half() const { return precision_ == Precision::fp16; }
  cudnnDataType_t data_type() const { return half() ? CUDNN_DATA_HALF : CUDNN_DATA_FLOAT; }

  // The FP32 tensor itself, or its FP16 copy in `copy`, scaled.
  const void* operand(const float* x, DeviceBuffer<std::uint16_t>& copy, std::size_t count, float scale) {
    if (!half()) return x;
    kernels::to_half(x, copy.get(), count, scale);
    check_launch("FP16 conversion kernel");
    return copy.get();
  }
  void result(const DeviceBuffer<std::uint16_t>& copy, float* x, std::size_t count, float scale) {
    kernels::to_float(copy.get(), x, count, scale);
    check_launch("FP32 conversion kernel");
  }

  void set_math(Layer& l, cudnnMathType_t math) {
    check_cudnn(cudnnSetConvolutionMathType(l.conv.get(), math), "convolution math type");
  }

  void* workspace(std::size_t bytes) {
    if (bytes == 0) return nullptr;
    if (!workspace_ || workspace_->size() < bytes) workspace_ = std::make_unique<DeviceBuffer<unsigned char>>(bytes);
    return workspace_->get();
  }

  // The descriptors and algorithms for batches of `rows`, chosen once.
  const Plan& plan(Layer& l, int rows) {
    auto& slot = l.plans[rows];
    if (slot) return *slot;
    auto p = std::make_unique<Plan>();
    const ConvGeometry& g = l.g;
    check_cudnn(cudnnSetTensor4dDescriptor(p->x.get(), CUDNN_TENSOR_NCHW, data_type(), rows, g.channels, g.height,
                                           g.width),
                "input descriptor");
    check_cudnn(cudnnSetTensor4dDescriptor(p->y.get(), CUDNN_TENSOR_NCHW, data_type(), rows, g.filters,
                                           g.out_height(), g.out_width()),
                "output descriptor");
    set_math(l, precision_ == Precision::fp32 ? CUDNN_FMA_MATH : precision_ == Precision::tf32 ? CUDNN_DEFAULT_MATH
                                                                                               : CUDNN_TENSOR_OP_MATH);
    int returned = 0;
    cudnnConvolutionFwdAlgoPerf_t fwd[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    check_cudnn(cudnnGetConvolutionForwardAlgorithm_v7(handle_.get(), p->x.get(), l.w.get(), l.conv.get(), p->y.get(),
                                                       CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &returned, fwd),
                "cudnnGetConvolutionForwardAlgorithm_v7");
    p->forward = pick<cudnnConvolutionFwdAlgo_t>(fwd, returned, precision_, "forward");
    cudnnConvolutionBwdDataAlgoPerf_t data[CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
    check_cudnn(cudnnGetConvolutionBackwardDataAlgorithm_v7(handle_.get(), l.w.get(), p->y.get(), l.conv.get(),
                                                            p->x.get(), CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT,
                                                            &returned, data),
                "cudnnGetConvolutionBackwardDataAlgorithm_v7");
    p->backward_data = pick<cudnnConvolutionBwdDataAlgo_t>(data, returned, precision_, "backward data");
    cudnnConvolutionBwdFilterAlgoPerf_t filter[CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT];
    check_cudnn(cudnnGetConvolutionBackwardFilterAlgorithm_v7(handle_.get(), p->x.get(), p->y.get(), l.conv.get(),
                                                              l.w.get(), CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT,
                                                              &returned, filter),
                "cudnnGetConvolutionBackwardFilterAlgorithm_v7");
    p->backward_filter = pick<cudnnConvolutionBwdFilterAlgo_t>(filter, returned, precision_, "backward filter");
    slot = std::move(p);
    return *slot;
  }

  Precision precision_;
  CudnnHandle handle_;
  std::vector<std::unique_ptr<Layer>> layers_;
  std::unique_ptr<DeviceBuffer<unsigned char>> workspace_;
};

}  // namespace

std::unique_ptr<ConvOps> make_cudnn_conv_ops(int device, Precision precision) {
  return std::make_unique<CudnnConvOps>(device, precision);
}

}  // namespace gkebuild::workloads
