#include "workloads/mnist-train/cpu_mlp_ops.h"

#include <algorithm>
#include <cmath>
#include <deque>

namespace gkebuild::workloads {
namespace {

class CpuMlpOps final : public MlpOps {
 public:
  explicit CpuMlpOps(int threads) : threads_(threads) {}

  float* floats(std::size_t count) override { return float_buffers_.emplace_back(count).data(); }
  int* ints(std::size_t count) override { return int_buffers_.emplace_back(count).data(); }
  void upload(float* device, const std::vector<float>& host) override {
    std::copy(host.begin(), host.end(), device);
  }
  std::vector<float> download(const float* device, std::size_t count) override {
    return std::vector<float>(device, device + count);
  }

  int add_dataset(const MnistSet& set) override {
    datasets_.push_back(&set);
    return static_cast<int>(datasets_.size()) - 1;
  }

  void gather(int dataset, const std::int32_t* indices, int count, float* x, int* y) override {
    const MnistSet& set = *datasets_[static_cast<std::size_t>(dataset)];
    const std::int64_t size = set.pixels_per_image();
    for (int i = 0; i < count; ++i) {
      const std::uint8_t* image = set.pixels.data() + indices[i] * size;
      for (std::int64_t p = 0; p < size; ++p) x[i * size + p] = image[p] / 255.0f;
      y[i] = set.labels[static_cast<std::size_t>(indices[i])];
    }
  }

  void gemm(Transpose ta, Transpose tb, int m, int n, int k, const float* a, int lda, const float* b, int ldb,
            float beta, float* c, int ldc) override {
    cpu_sgemm(ta, tb, m, n, k, 1.0f, a, lda, b, ldb, beta, c, ldc, threads_);
  }

  void add_bias(float* x, const float* bias, int rows, int cols, bool relu) override {
    for (int i = 0; i < rows; ++i) {
      for (int j = 0; j < cols; ++j) {
        float& v = x[static_cast<std::size_t>(i) * cols + j];
        v += bias[j];
        if (relu) v = std::max(v, 0.0f);
      }
    }
  }

  void softmax_cross_entropy(const float* logits, const int* y, int rows, int classes, float scale,
                             float* grad) override {
    for (int i = 0; i < rows; ++i) {
      const float* z = logits + static_cast<std::size_t>(i) * classes;
      const int best = static_cast<int>(std::max_element(z, z + classes) - z);
      double sum = 0;
      for (int j = 0; j < classes; ++j) sum += std::exp(static_cast<double>(z[j] - z[best]));
      totals_.loss_sum += std::log(sum) - (z[y[i]] - z[best]);
      totals_.correct += best == y[i];
      for (int j = 0; j < classes; ++j) {
        const double p = std::exp(static_cast<double>(z[j] - z[best])) / sum;
        grad[static_cast<std::size_t>(i) * classes + j] = static_cast<float>(scale * (p - (j == y[i])));
      }
    }
  }

  void relu_backward(float* grad, const float* activation, std::size_t count) override {
    for (std::size_t i = 0; i < count; ++i) {
      if (activation[i] <= 0.0f) grad[i] = 0.0f;
    }
  }

  void column_sums(const float* x, int rows, int cols, float* sums) override {
    std::fill(sums, sums + cols, 0.0f);
    for (int i = 0; i < rows; ++i) {
      for (int j = 0; j < cols; ++j) sums[j] += x[static_cast<std::size_t>(i) * cols + j];
    }
  }

  void sgd_step(float* param, const float* grad, float* velocity, std::size_t count, float lr,
                float momentum) override {
    for (std::size_t i = 0; i < count; ++i) {
      velocity[i] = momentum * velocity[i] + grad[i];
      param[i] -= lr * velocity[i];
    }
  }

  void reset_totals() override { totals_ = {}; }
  BatchTotals totals() override { return totals_; }

 private:
  int threads_;
  // deques: growing them keeps the buffers handed out where they are.
  std::deque<std::vector<float>> float_buffers_;
  std::deque<std::vector<int>> int_buffers_;
  std::vector<const MnistSet*> datasets_;
  BatchTotals totals_;
};

}  // namespace

std::unique_ptr<MlpOps> make_cpu_mlp_ops(int threads) { return std::make_unique<CpuMlpOps>(threads); }

}  // namespace gkebuild::workloads
