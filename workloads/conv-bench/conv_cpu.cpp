#include "workloads/conv-bench/conv_cpu.h"

#include <algorithm>
#include <cmath>

#include "workloads/common/cpu_gemm.h"

namespace gkebuild::workloads {

std::vector<float> conv_direct(const ConvShape& s, const std::vector<float>& input,
                               const std::vector<float>& filter, std::vector<double>* magnitude) {
  const std::int64_t P = s.p(), Q = s.q();
  std::vector<float> out(static_cast<std::size_t>(s.output_size()));
  if (magnitude) magnitude->assign(out.size(), 0.0);
  for (std::int64_t n = 0; n < s.n; ++n)
    for (std::int64_t k = 0; k < s.k; ++k)
      for (std::int64_t p = 0; p < P; ++p)
        for (std::int64_t q = 0; q < Q; ++q) {
          double sum = 0, size = 0;
          for (std::int64_t c = 0; c < s.c; ++c)
            for (std::int64_t r = 0; r < s.r; ++r)
              for (std::int64_t t = 0; t < s.s; ++t) {
                const std::int64_t y = p * s.stride - s.pad + r;
                const std::int64_t x = q * s.stride - s.pad + t;
                if (y < 0 || y >= s.h || x < 0 || x >= s.w) continue;
                const double term = static_cast<double>(input[((n * s.c + c) * s.h + y) * s.w + x]) *
                                    filter[((k * s.c + c) * s.r + r) * s.s + t];
                sum += term;
                size += std::fabs(term);
              }
          const std::size_t index = static_cast<std::size_t>(((n * s.k + k) * P + p) * Q + q);
          out[index] = static_cast<float>(sum);
          if (magnitude) (*magnitude)[index] = size;
        }
  return out;
}

namespace {

// Column (c, r, t) × (p, q) of one image: zero where the filter reads the padding.
void im2col(const ConvShape& s, const float* image, float* columns) {
  const std::int64_t P = s.p(), Q = s.q();
  for (std::int64_t c = 0; c < s.c; ++c)
    for (std::int64_t r = 0; r < s.r; ++r)
      for (std::int64_t t = 0; t < s.s; ++t) {
        float* row = columns + ((c * s.r + r) * s.s + t) * P * Q;
        for (std::int64_t p = 0; p < P; ++p) {
          const std::int64_t y = p * s.stride - s.pad + r;
          for (std::int64_t q = 0; q < Q; ++q) {
            const std::int64_t x = q * s.stride - s.pad + t;
            const bool inside = y >= 0 && y < s.h && x >= 0 && x < s.w;
            row[p * Q + q] = inside ? image[(c * s.h + y) * s.w + x] : 0.0f;
          }
        }
      }
}

}  // namespace

void conv_im2col(const ConvShape& s, const float* input, const float* filter, float* output,
                 int threads) {
  const std::int64_t crs = s.c * s.r * s.s;
  const std::int64_t pq = s.p() * s.q();
  // A 1×1 stride-1 unpadded convolution reads the image as it is: no unfolding.
  const bool direct_view = s.r == 1 && s.s == 1 && s.stride == 1 && s.pad == 0;
  std::vector<float> columns(direct_view ? 0 : static_cast<std::size_t>(crs * pq));
  for (std::int64_t n = 0; n < s.n; ++n) {
    const float* image = input + n * s.c * s.h * s.w;
    if (!direct_view) im2col(s, image, columns.data());
    const float* b = direct_view ? image : columns.data();
    cpu_sgemm(Transpose::no, Transpose::no, s.k, pq, crs, 1.0f, filter, crs, b, pq, 0.0f,
              output + n * s.k * pq, pq, threads);
  }
}

double conv_max_error(const std::vector<float>& output, const std::vector<float>& reference,
                      const std::vector<double>& magnitude) {
  double worst = 0;
  for (std::size_t i = 0; i < output.size() && i < reference.size(); ++i) {
    const double error = std::fabs(static_cast<double>(output[i]) - reference[i]) / std::max(magnitude[i], 1e-30);
    if (std::isnan(error)) return INFINITY;
    worst = std::max(worst, error);
  }
  return output.size() == reference.size() ? worst : INFINITY;
}

}  // namespace gkebuild::workloads
