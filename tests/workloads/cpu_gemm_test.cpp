// The blocked SGEMM against the naive triple loop, over shapes that fill no tile, tiny ones,
// every transpose combination, padded strides and several thread counts.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <tuple>
#include <vector>

#include "workloads/common/cpu_gemm.h"

namespace gkebuild::workloads {
namespace {

struct Case {
  std::int64_t m, n, k;
};

std::vector<float> random_buffer(std::size_t size, std::mt19937& rng) {
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> v(size);
  for (float& x : v) x = uniform(rng);
  return v;
}

// C = alpha·op(A)·op(B) + beta·C in double, and Σ|terms| per entry as the error scale.
void naive(Transpose ta, Transpose tb, const Case& s, float alpha, const std::vector<float>& a, std::int64_t lda,
           const std::vector<float>& b, std::int64_t ldb, float beta, std::vector<double>& c,
           std::vector<double>& scale, std::int64_t ldc) {
  for (std::int64_t i = 0; i < s.m; ++i)
    for (std::int64_t j = 0; j < s.n; ++j) {
      double sum = 0, size = 0;
      for (std::int64_t l = 0; l < s.k; ++l) {
        const double x = ta == Transpose::no ? a[i * lda + l] : a[l * lda + i];
        const double y = tb == Transpose::no ? b[l * ldb + j] : b[j * ldb + l];
        sum += x * y;
        size += std::fabs(x * y);
      }
      const double old = c[i * ldc + j];
      c[i * ldc + j] = alpha * sum + beta * old;
      scale[i * ldc + j] = std::fabs(alpha) * size + std::fabs(beta * old) + 1e-30;
    }
}

void expect_matches_naive(const Case& s, Transpose ta, Transpose tb, int threads, std::mt19937& rng) {
  const float alpha = 1.5f, beta = -0.5f;
  // Leading dimensions larger than needed, so that strides are honoured.
  const std::int64_t lda = (ta == Transpose::no ? s.k : s.m) + 3;
  const std::int64_t ldb = (tb == Transpose::no ? s.n : s.k) + 2;
  const std::int64_t ldc = s.n + 5;
  const auto a = random_buffer(static_cast<std::size_t>((ta == Transpose::no ? s.m : s.k) * lda), rng);
  const auto b = random_buffer(static_cast<std::size_t>((tb == Transpose::no ? s.k : s.n) * ldb), rng);
  auto c = random_buffer(static_cast<std::size_t>(s.m * ldc), rng);
  std::vector<double> expected(c.begin(), c.end()), scale(c.size(), 1.0);
  naive(ta, tb, s, alpha, a, lda, b, ldb, beta, expected, scale, ldc);
  cpu_sgemm(ta, tb, s.m, s.n, s.k, alpha, a.data(), lda, b.data(), ldb, beta, c.data(), ldc, threads);
  for (std::int64_t i = 0; i < s.m; ++i)
    for (std::int64_t j = 0; j < s.n; ++j) {
      const std::size_t at = static_cast<std::size_t>(i * ldc + j);
      ASSERT_LE(std::fabs(c[at] - expected[at]) / scale[at], 1e-5)
          << "m=" << s.m << " n=" << s.n << " k=" << s.k << " ta=" << (ta == Transpose::yes)
          << " tb=" << (tb == Transpose::yes) << " threads=" << threads << " at (" << i << ", " << j << ")";
    }
}

// Every micro-kernel this CPU can run (AVX-512, AVX2+FMA, portable), each with its own tile.
TEST(CpuGemm, EveryKernelMatchesNaiveProductOnFixedOddAndTinyShapes) {
  const std::string picked = cpu_sgemm_kernel_name();
  std::mt19937 rng(7);
  const Case cases[] = {{1, 1, 1}, {1, 17, 3}, {7, 1, 5}, {2, 3, 1}, {13, 29, 31}, {6, 32, 256},
                        {100, 37, 258}, {145, 33, 257}, {5, 3100, 9}, {300, 20, 2}};
  int kernels_run = 0;
  for (const char* name : {"avx512", "avx2", "generic"}) {
    if (!use_cpu_sgemm_kernel(name)) continue;
    ++kernels_run;
    SCOPED_TRACE(name);
    for (const Case& s : cases)
      for (Transpose ta : {Transpose::no, Transpose::yes})
        for (Transpose tb : {Transpose::no, Transpose::yes})
          for (int threads : {1, 3}) expect_matches_naive(s, ta, tb, threads, rng);
  }
  EXPECT_GE(kernels_run, 1);
  EXPECT_TRUE(use_cpu_sgemm_kernel(picked));
  EXPECT_FALSE(use_cpu_sgemm_kernel("sse9"));
}

TEST(CpuGemm, MatchesNaiveProductOnRandomShapes) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> size(1, 90);
  for (int trial = 0; trial < 40; ++trial) {
    const Case s{size(rng), size(rng), size(rng)};
    const auto ta = trial % 2 ? Transpose::yes : Transpose::no;
    const auto tb = trial % 3 ? Transpose::no : Transpose::yes;
    expect_matches_naive(s, ta, tb, 1 + trial % 4, rng);
  }
}

TEST(CpuGemm, BetaZeroNeverReadsC) {
  const std::vector<float> a{1, 2, 3, 4}, b{5, 6, 7, 8};
  std::vector<float> c(4, std::numeric_limits<float>::quiet_NaN());
  cpu_sgemm(Transpose::no, Transpose::no, 2, 2, 2, 1.0f, a.data(), 2, b.data(), 2, 0.0f, c.data(), 2, 2);
  EXPECT_EQ(c, (std::vector<float>{19, 22, 43, 50}));
}

TEST(CpuGemm, EmptyInnerDimensionScalesC) {
  std::vector<float> c{1, 2, 3};
  cpu_sgemm(Transpose::no, Transpose::no, 1, 3, 0, 1.0f, nullptr, 1, nullptr, 3, 2.0f, c.data(), 3, 2);
  EXPECT_EQ(c, (std::vector<float>{2, 4, 6}));
}

TEST(CpuGemm, NamesTheKernelItPicked) {
  const std::string name = cpu_sgemm_kernel_name();
  EXPECT_TRUE(name == "avx512" || name == "avx2" || name == "generic") << name;
}

}  // namespace
}  // namespace gkebuild::workloads
