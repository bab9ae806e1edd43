#include "workloads/mnist-train/cpu_conv_ops.h"

#include <algorithm>
#include <vector>

#include "workloads/common/cpu_gemm.h"

namespace gkebuild::workloads {
namespace {

struct CpuLayer {
  ConvGeometry g;
  std::vector<float> columns;  // (channels·k·k) × (rows·P·Q), the unfolded batch
  std::vector<float> planes;   // filters × (rows·P·Q): the output or its gradient, filter-major
};

class CpuConvOps final : public ConvOps {
 public:
  explicit CpuConvOps(int threads) : threads_(threads) {}

  int add_layer(const ConvGeometry& g, int max_rows) override {
    const std::size_t pq = static_cast<std::size_t>(g.out_height()) * g.out_width() * max_rows;
    layers_.push_back({g, std::vector<float>(crs(g) * pq), std::vector<float>(g.filters * pq)});
    return static_cast<int>(layers_.size()) - 1;
  }

  void forward(int layer, int rows, const float* x, const float* w, const float* bias, float* y) override {
    CpuLayer& l = layers_[static_cast<std::size_t>(layer)];
    const std::int64_t n = columns(l.g, rows);
    unfold(l, rows, x);
    cpu_sgemm(Transpose::no, Transpose::no, l.g.filters, n, crs(l.g), 1.0f, w, crs(l.g), l.columns.data(), n, 0.0f,
              l.planes.data(), n, threads_);
    const std::int64_t pq = n / rows;
    for (int r = 0; r < rows; ++r)
      for (int k = 0; k < l.g.filters; ++k) {
        const float* from = l.planes.data() + k * n + r * pq;
        float* to = y + (static_cast<std::int64_t>(r) * l.g.filters + k) * pq;
        for (std::int64_t i = 0; i < pq; ++i) to[i] = std::max(from[i] + bias[k], 0.0f);
      }
  }

  void backward_filter(int layer, int rows, const float* x, const float* dy, float* dw, float* dbias) override {
    CpuLayer& l = layers_[static_cast<std::size_t>(layer)];
    const std::int64_t n = columns(l.g, rows);
    unfold(l, rows, x);
    gather_planes(l, rows, dy);
    cpu_sgemm(Transpose::no, Transpose::yes, l.g.filters, crs(l.g), n, 1.0f, l.planes.data(), n, l.columns.data(), n,
              0.0f, dw, crs(l.g), threads_);
    for (int k = 0; k < l.g.filters; ++k) {
      float sum = 0;
      for (std::int64_t i = 0; i < n; ++i) sum += l.planes[static_cast<std::size_t>(k * n + i)];
      dbias[k] = sum;
    }
  }

  void backward_data(int layer, int rows, const float* w, const float* dy, float* dx) override {
    CpuLayer& l = layers_[static_cast<std::size_t>(layer)];
    const std::int64_t n = columns(l.g, rows);
    gather_planes(l, rows, dy);
    cpu_sgemm(Transpose::yes, Transpose::no, crs(l.g), n, l.g.filters, 1.0f, w, crs(l.g), l.planes.data(), n, 0.0f,
              l.columns.data(), n, threads_);
    fold(l, rows, dx);
  }

  void max_pool(int rows, int channels, int height, int width, const float* x, float* y) override {
    for_each_window(rows * channels, height, width, [&](std::int64_t out, std::int64_t best) { y[out] = x[best]; }, x);
  }

  void max_pool_backward(int rows, int channels, int height, int width, const float* x, const float* dy,
                         float* dx) override {
    std::fill(dx, dx + static_cast<std::size_t>(rows) * channels * height * width, 0.0f);
    for_each_window(rows * channels, height, width, [&](std::int64_t out, std::int64_t best) { dx[best] = dy[out]; },
                    x);
  }

 private:
  static std::int64_t crs(const ConvGeometry& g) { return static_cast<std::int64_t>(g.channels) * g.kernel * g.kernel; }
  static std::int64_t columns(const ConvGeometry& g, int rows) {
    return static_cast<std::int64_t>(rows) * g.out_height() * g.out_width();
  }

  // visit(i, j) for each unfolded entry: i its index in `columns`, j the pixel's index in the
  // batch, or -1 where the filter reads the padding.
  template <typename Visit>
  static void each_unfolded(const ConvGeometry& g, int rows, Visit visit) {
    const std::int64_t P = g.out_height(), Q = g.out_width(), n = columns(g, rows);
    for (std::int64_t c = 0; c < g.channels; ++c)
      for (std::int64_t r = 0; r < g.kernel; ++r)
        for (std::int64_t t = 0; t < g.kernel; ++t) {
          const std::int64_t row = ((c * g.kernel + r) * g.kernel + t) * n;
          for (std::int64_t b = 0; b < rows; ++b)
            for (std::int64_t p = 0; p < P; ++p) {
              const std::int64_t y = p - g.pad + r;
              for (std::int64_t q = 0; q < Q; ++q) {
                const std::int64_t x = q - g.pad + t;
                const bool inside = y >= 0 && y < g.height && x >= 0 && x < g.width;
                visit(row + (b * P + p) * Q + q, inside ? ((b * g.channels + c) * g.height + y) * g.width + x : -1);
              }
            }
        }
  }

  static void unfold(CpuLayer& l, int rows, const float* x) {
    float* columns = l.columns.data();
    each_unfolded(l.g, rows, [&](std::int64_t i, std::int64_t j) { columns[i] = j < 0 ? 0.0f : x[j]; });
  }

  static void fold(CpuLayer& l, int rows, float* dx) {
    std::fill(dx, dx + l.g.input_per_row() * static_cast<std::size_t>(rows), 0.0f);
    const float* columns = l.columns.data();
    each_unfolded(l.g, rows, [&](std::int64_t i, std::int64_t j) {
      if (j >= 0) dx[j] += columns[i];
    });
  }

  // planes(k, b·PQ + i) = dy(b, k, i).
  static void gather_planes(CpuLayer& l, int rows, const float* dy) {
    const std::int64_t n = columns(l.g, rows), pq = n / rows;
    for (int r = 0; r < rows; ++r)
      for (int k = 0; k < l.g.filters; ++k)
        std::copy_n(dy + (static_cast<std::int64_t>(r) * l.g.filters + k) * pq, pq, l.planes.data() + k * n + r * pq);
  }

  // visit(output index, index of the window's first maximum) over planes of height × width.
  template <typename Visit>
  static void for_each_window(std::int64_t planes, int height, int width, Visit visit, const float* x) {
    const std::int64_t P = height / 2, Q = width / 2;
    for (std::int64_t plane = 0; plane < planes; ++plane)
      for (std::int64_t p = 0; p < P; ++p)
        for (std::int64_t q = 0; q < Q; ++q) {
          const std::int64_t corner = (plane * height + 2 * p) * width + 2 * q;
          std::int64_t best = corner;
          for (std::int64_t at : {corner + 1, corner + width, corner + width + 1}) best = x[at] > x[best] ? at : best;
          visit((plane * P + p) * Q + q, best);
        }
  }

  int threads_;
  std::vector<CpuLayer> layers_;
};

}  // namespace

std::unique_ptr<ConvOps> make_cpu_conv_ops(int threads) { return std::make_unique<CpuConvOps>(threads); }

}  // namespace gkebuild::workloads
