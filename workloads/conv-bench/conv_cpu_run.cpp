// conv-bench on the CPU: im2col + the blocked SGEMM, FP32 only.
#include "base/exit_codes.h"
#include "workloads/common/cpu_gemm.h"
#include "workloads/common/errors.h"
#include "workloads/common/random_values.h"
#include "workloads/common/timing.h"
#include "workloads/conv-bench/conv_cpu.h"
#include "workloads/conv-bench/conv_runs.h"

namespace gkebuild::workloads {

int run_cpu_conv(const ConvConfig& config, const Device& device, ResultWriter& writer) {
  for (Precision p : config.precisions) {
    if (p != Precision::fp32) {
      throw UsageError("precision " + to_string(p) + " needs a CUDA device; the CPU path computes fp32 only");
    }
  }
  const nlohmann::json extra = {{"algorithm", "im2col+sgemm"}, {"kernel", cpu_sgemm_kernel_name()},
                                {"threads", device.threads}};
  {
    const ConvShape small = check_shape();
    const auto x = random_values(small.input_size(), config.seed);
    const auto w = random_values(small.filter_size(), config.seed + 1);
    std::vector<double> magnitude;
    const auto reference = conv_direct(small, x, w, &magnitude);
    std::vector<float> y(reference.size());
    conv_im2col(small, x.data(), w.data(), y.data(), device.threads);
    if (!report_conv_check(writer, Precision::fp32, conv_max_error(y, reference, magnitude), extra)) {
      return cli::kExitFailure;
    }
  }
  for (const ConvShape& shape : config.layers) {
    const auto x = random_values(shape.input_size(), config.seed);
    const auto w = random_values(shape.filter_size(), config.seed + 1);
    std::vector<float> y(static_cast<std::size_t>(shape.output_size()));
    auto run = [&] { conv_im2col(shape, x.data(), w.data(), y.data(), device.threads); };
    const std::vector<double> seconds = time_on_host(config.warmup, config.repetitions, run);
    report_conv_layer(writer, shape, Precision::fp32, seconds, extra);
  }
  return cli::kExitSuccess;
}

}  // namespace gkebuild::workloads
