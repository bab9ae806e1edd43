// conv-bench on cuDNN 9: forward convolution in NCHW, the algorithm chosen by measuring the
// candidates (cudnnFindConvolutionForwardAlgorithm) within a workspace limit.
#include <algorithm>
#include <cstdio>
#include <memory>

#include "base/exit_codes.h"
#include "workloads/common/cuda_timer.h"
#include "workloads/common/device_buffer.h"
#include "workloads/common/device_format.h"
#include "workloads/common/random_values.h"
#include "workloads/conv-bench/conv_cpu.h"
#include "workloads/conv-bench/conv_runs.h"
#include "workloads/common/cudnn_objects.h"

namespace gkebuild::workloads {
namespace {

constexpr std::size_t kMaxWorkspace = std::size_t{1} << 30;

cudnnDataType_t data_type(Precision p) {
  if (p == Precision::fp16) return CUDNN_DATA_HALF;
  if (p == Precision::bf16) return CUDNN_DATA_BFLOAT16;
  return CUDNN_DATA_FLOAT;
}

// FP32 without tensor cores; TF32 lets cuDNN use them on FP32 data; 16-bit data on them.
cudnnMathType_t math_type(Precision p) {
  if (p == Precision::fp32) return CUDNN_FMA_MATH;
  if (p == Precision::tf32) return CUDNN_DEFAULT_MATH;
  return CUDNN_TENSOR_OP_MATH;
}

// One layer set up on the device with its inputs, ready to run.
class CudnnConvolution {
 public:
  CudnnConvolution(const CudnnHandle& handle, const ConvShape& s, Precision p, std::uint64_t seed)
      : handle_(handle), shape_(s), precision_(p),
        x_host_(random_values(s.input_size(), seed)), w_host_(random_values(s.filter_size(), seed + 1)),
        x_(x_host_.size() * element_bytes(p)), w_(w_host_.size() * element_bytes(p)),
        y_(static_cast<std::size_t>(s.output_size()) * element_bytes(p)) {
    const cudnnDataType_t type = data_type(p);
    check_cudnn(cudnnSetTensor4dDescriptor(xd_.get(), CUDNN_TENSOR_NCHW, type, int(s.n), int(s.c), int(s.h), int(s.w)),
                "input descriptor of " + s.name);
    check_cudnn(cudnnSetFilter4dDescriptor(wd_.get(), type, CUDNN_TENSOR_NCHW, int(s.k), int(s.c), int(s.r), int(s.s)),
                "filter descriptor of " + s.name);
    check_cudnn(cudnnSetConvolution2dDescriptor(cd_.get(), int(s.pad), int(s.pad), int(s.stride), int(s.stride), 1, 1,
                                                CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
                "convolution descriptor of " + s.name);
    check_cudnn(cudnnSetConvolutionMathType(cd_.get(), math_type(p)), "math type");
    check_cudnn(cudnnSetTensor4dDescriptor(yd_.get(), CUDNN_TENSOR_NCHW, type, int(s.n), int(s.k), int(s.p()), int(s.q())),
                "output descriptor of " + s.name);
    x_.upload(encode_values(x_host_, p));
    w_.upload(encode_values(w_host_, p));
    choose_algorithm();
  }

  void run() {
    const float alpha = 1.0f;
    const float beta = 0.0f;
    check_cudnn(cudnnConvolutionForward(handle_.get(), &alpha, xd_.get(), x_.get(), wd_.get(), w_.get(), cd_.get(),
                                        algorithm_, workspace_ ? workspace_->get() : nullptr, workspace_bytes_,
                                        &beta, yd_.get(), y_.get()),
                "cudnnConvolutionForward " + shape_.name);
  }

  std::vector<float> output() const { return decode_values(y_.download(), precision_); }
  const std::vector<float>& input() const { return x_host_; }
  const std::vector<float>& filter() const { return w_host_; }
  nlohmann::json facts() const {
    return {{"library", "cuDNN"}, {"algorithm", static_cast<int>(algorithm_)}, {"workspace_bytes", workspace_bytes_}};
  }

 private:
  // The fastest measured algorithm that succeeds within the workspace limit.
  void choose_algorithm() {
    cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    int returned = 0;
    check_cudnn(cudnnFindConvolutionForwardAlgorithm(handle_.get(), xd_.get(), wd_.get(), cd_.get(), yd_.get(),
                                                     CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &returned, perf),
                "choosing an algorithm for " + shape_.name);
    const auto usable = std::find_if(perf, perf + returned, [](const cudnnConvolutionFwdAlgoPerf_t& a) {
      return a.status == CUDNN_STATUS_SUCCESS && a.memory <= kMaxWorkspace;
    });
    if (usable == perf + returned) {
      throw RunError("cuDNN has no forward algorithm for " + shape_.name + " in " + to_string(precision_));
    }
    algorithm_ = usable->algo;
    workspace_bytes_ = usable->memory;
    if (workspace_bytes_ > 0) workspace_ = std::make_unique<DeviceBuffer<unsigned char>>(workspace_bytes_);
  }

  const CudnnHandle& handle_;
  ConvShape shape_;
  Precision precision_;
  std::vector<float> x_host_, w_host_;
  DeviceBuffer<unsigned char> x_, w_, y_;
  TensorDescriptor xd_, yd_;
  FilterDescriptor wd_;
  ConvolutionDescriptor cd_;
  cudnnConvolutionFwdAlgo_t algorithm_{};
  std::size_t workspace_bytes_ = 0;
  std::unique_ptr<DeviceBuffer<unsigned char>> workspace_;
};

bool check_precision(const CudnnHandle& handle, Precision p, std::uint64_t seed, ResultWriter& writer) {
  const ConvShape small = check_shape();
  CudnnConvolution conv(handle, small, p, seed);
  conv.run();
  std::vector<double> magnitude;
  const auto reference = conv_direct(small, conv.input(), conv.filter(), &magnitude);
  return report_conv_check(writer, p, conv_max_error(conv.output(), reference, magnitude), conv.facts());
}

void measure_layer(const CudnnHandle& handle, const ConvShape& s, Precision p, const ConvConfig& config,
                   const Device& device, ResultWriter& writer) {
  const double bytes = static_cast<double>(element_bytes(p)) * (s.input_size() + s.filter_size() + s.output_size());
  require_device_memory(device.index, static_cast<std::size_t>(bytes), "conv-bench " + s.name);
  CudnnConvolution conv(handle, s, p, config.seed);
  for (int i = 0; i < config.warmup; ++i) conv.run();
  CudaTimer timer;
  std::vector<double> seconds;
  for (int i = 0; i < config.repetitions; ++i) {
    timer.start();
    conv.run();
    seconds.push_back(timer.stop());
  }
  report_conv_layer(writer, s, p, seconds, conv.facts());
}

}  // namespace

int run_cudnn_conv(const ConvConfig& config, const Device& device, ResultWriter& writer) {
  check_cuda(cudaSetDevice(device.index), "cudaSetDevice");
  const CudnnHandle handle;
  for (Precision p : config.precisions) {
    if (!check_precision(handle, p, config.seed, writer)) return cli::kExitFailure;
    for (const ConvShape& shape : config.layers) measure_layer(handle, shape, p, config, device, writer);
  }
  return cli::kExitSuccess;
}

}  // namespace gkebuild::workloads
