#include "workloads/common/cpu_gemm.h"

#include <algorithm>
#include <barrier>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace gkebuild::workloads {
namespace {

using v4f = float __attribute__((vector_size(16)));
using v8f = float __attribute__((vector_size(32)));
using v16f = float __attribute__((vector_size(64)));

// Cache blocking: a KC×NR panel of B stays in L1, an MC×KC block of A in L2, a KC×NC block
// of B in L3. MC is a multiple of every MR below.
constexpr std::int64_t kKc = 256;
constexpr std::int64_t kMcMax = 144;
constexpr std::int64_t kNc = 3072;

struct Problem {
  Transpose ta, tb;
  std::int64_t m, n, k;
  float alpha;
  const float* a;
  std::int64_t lda;
  const float* b;
  std::int64_t ldb;
  float beta;
  float* c;
  std::int64_t ldc;
};

float op_a(const Problem& p, std::int64_t i, std::int64_t l) {
  return p.ta == Transpose::no ? p.a[i * p.lda + l] : p.a[l * p.lda + i];
}
float op_b(const Problem& p, std::int64_t l, std::int64_t j) {
  return p.tb == Transpose::no ? p.b[l * p.ldb + j] : p.b[j * p.ldb + l];
}

// Rows i0…i0+mc of op(A), columns l0…l0+kc, as MR-row panels, each column of a panel
// contiguous; rows past the edge are zero so the micro-kernel never branches.
void pack_a(const Problem& p, std::int64_t i0, std::int64_t mc, std::int64_t l0, std::int64_t kc,
            int mr, float* out) {
  for (std::int64_t ir = 0; ir < mc; ir += mr) {
    const std::int64_t rows = std::min<std::int64_t>(mr, mc - ir);
    for (std::int64_t l = 0; l < kc; ++l) {
      for (std::int64_t r = 0; r < mr; ++r) *out++ = r < rows ? op_a(p, i0 + ir + r, l0 + l) : 0.0f;
    }
  }
}

// NR-column panel `panel` of op(B) rows l0…l0+kc, columns j0…j0+nc, each row contiguous.
void pack_b_panel(const Problem& p, std::int64_t l0, std::int64_t kc, std::int64_t j0,
                  std::int64_t nc, int nr, std::int64_t panel, float* out) {
  const std::int64_t jr = panel * nr;
  const std::int64_t cols = std::min<std::int64_t>(nr, nc - jr);
  out += jr * kc;
  for (std::int64_t l = 0; l < kc; ++l) {
    for (std::int64_t c = 0; c < nr; ++c) *out++ = c < cols ? op_b(p, l0 + l, j0 + jr + c) : 0.0f;
  }
}

// C tile = alpha·acc + beta·C for the rows × cols that exist.
void store_tile(const float* acc, int nr, std::int64_t rows, std::int64_t cols, float alpha,
                float beta, float* c, std::int64_t ldc) {
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t col = 0; col < cols; ++col) {
      const float v = alpha * acc[r * nr + col];
      c[r * ldc + col] = beta == 0.0f ? v : v + beta * c[r * ldc + col];
    }
  }
}

// acc(MR×NR) = packed A panel · packed B panel; a row of the tile is two vectors of width W
// (NR = 2W). B's two vectors live in named registers, not an array, so the compiler keeps
// the loop free of stores.
template <int MR, int NR, typename V>
[[gnu::always_inline]] inline void micro_kernel(std::int64_t kc, const float* a, const float* b,
                                                float* acc) {
  static_assert(NR == 2 * static_cast<int>(sizeof(V) / sizeof(float)), "a tile row is two vectors");
  V lo[MR] = {};
  V hi[MR] = {};
  for (std::int64_t l = 0; l < kc; ++l) {
    V b0, b1;
    std::memcpy(&b0, b + l * NR, sizeof(V));
    std::memcpy(&b1, b + l * NR + NR / 2, sizeof(V));
    for (int r = 0; r < MR; ++r) {
      const float ar = a[l * MR + r];
      lo[r] += ar * b0;
      hi[r] += ar * b1;
    }
  }
  for (int r = 0; r < MR; ++r) {
    std::memcpy(acc + r * NR, &lo[r], sizeof(V));
    std::memcpy(acc + r * NR + NR / 2, &hi[r], sizeof(V));
  }
}

struct Block {
  std::int64_t i0, mc, j0, nc, kc;
  float beta;
};

// One MC×NC block of C from packed A and B: the loops around the micro-kernel.
template <int MR, int NR, typename V>
[[gnu::always_inline]] inline void compute_block_impl(const Problem& p, const Block& blk,
                                                      const float* pa, const float* pb) {
  alignas(64) float acc[MR * NR];
  for (std::int64_t jr = 0; jr < blk.nc; jr += NR) {
    const std::int64_t cols = std::min<std::int64_t>(NR, blk.nc - jr);
    for (std::int64_t ir = 0; ir < blk.mc; ir += MR) {
      const std::int64_t rows = std::min<std::int64_t>(MR, blk.mc - ir);
      micro_kernel<MR, NR, V>(blk.kc, pa + ir * blk.kc, pb + jr * blk.kc, acc);
      store_tile(acc, NR, rows, cols, p.alpha, blk.beta, p.c + (blk.i0 + ir) * p.ldc + blk.j0 + jr,
                 p.ldc);
    }
  }
}

using ComputeBlock = void (*)(const Problem&, const Block&, const float*, const float*);

#if defined(__x86_64__)
__attribute__((target("avx512f,avx2,fma"))) void compute_block_avx512(const Problem& p,
                                                                       const Block& blk,
                                                                       const float* pa,
                                                                       const float* pb) {
  compute_block_impl<12, 32, v16f>(p, blk, pa, pb);
}
__attribute__((target("avx2,fma"))) void compute_block_avx2(const Problem& p, const Block& blk,
                                                            const float* pa, const float* pb) {
  compute_block_impl<6, 16, v8f>(p, blk, pa, pb);
}
#endif
void compute_block_generic(const Problem& p, const Block& blk, const float* pa, const float* pb) {
  compute_block_impl<4, 8, v4f>(p, blk, pa, pb);
}

struct Kernel {
  const char* name;
  int mr, nr;
  ComputeBlock compute;
};

bool cpu_supports(const std::string& name) {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (name == "avx512") return __builtin_cpu_supports("avx512f");
  if (name == "avx2") return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
  return name == "generic";
}

// The kernels, widest first.
std::vector<Kernel> kernels() {
  return {
#if defined(__x86_64__)
      {"avx512", 12, 32, compute_block_avx512},
      {"avx2", 6, 16, compute_block_avx2},
#endif
      {"generic", 4, 8, compute_block_generic}};
}

Kernel& kernel() {
  static Kernel picked = [] {
    for (const Kernel& k : kernels()) {
      if (cpu_supports(k.name)) return k;
    }
    return kernels().back();
  }();
  return picked;
}

std::int64_t round_up(std::int64_t x, std::int64_t to) { return (x + to - 1) / to * to; }

// C = beta·C where nothing is multiplied (k == 0 or alpha == 0).
void scale_c(const Problem& p) {
  for (std::int64_t i = 0; i < p.m; ++i) {
    float* row = p.c + i * p.ldc;
    for (std::int64_t j = 0; j < p.n; ++j) row[j] = p.beta == 0.0f ? 0.0f : p.beta * row[j];
  }
}

// Every thread packs its share of B, then computes its MC-row blocks of C; barriers keep
// the shared packed B stable while anyone reads it.
class ParallelGemm {
 public:
  ParallelGemm(const Problem& p, int threads)
      : p_(p), kern_(kernel()), threads_(threads), sync_(threads) {
    // Enough MC blocks for every thread when m allows it.
    mc_ = std::min(kMcMax, round_up((p.m + threads - 1) / threads, kern_.mr));
    row_blocks_ = (p.m + mc_ - 1) / mc_;
    packed_b_.resize(static_cast<std::size_t>(round_up(std::min(p.n, kNc), kern_.nr) * kKc));
    packed_a_.resize(threads);
    for (auto& buffer : packed_a_) buffer.resize(static_cast<std::size_t>(mc_ * kKc));
  }

  void run() {
    std::vector<std::jthread> helpers;
    for (int t = 1; t < threads_; ++t) helpers.emplace_back([this, t] { work(t); });
    work(0);
  }

 private:
  void work(int t) {
    for (std::int64_t j0 = 0; j0 < p_.n; j0 += kNc) {
      const std::int64_t nc = std::min(kNc, p_.n - j0);
      const std::int64_t panels = (nc + kern_.nr - 1) / kern_.nr;
      for (std::int64_t l0 = 0; l0 < p_.k; l0 += kKc) {
        const std::int64_t kc = std::min(kKc, p_.k - l0);
        for (std::int64_t q = t; q < panels; q += threads_) {
          pack_b_panel(p_, l0, kc, j0, nc, kern_.nr, q, packed_b_.data());
        }
        sync_.arrive_and_wait();
        const float beta = l0 == 0 ? p_.beta : 1.0f;
        for (std::int64_t rb = t; rb < row_blocks_; rb += threads_) {
          const std::int64_t i0 = rb * mc_;
          const Block blk{i0, std::min(mc_, p_.m - i0), j0, nc, kc, beta};
          pack_a(p_, i0, blk.mc, l0, kc, kern_.mr, packed_a_[t].data());
          kern_.compute(p_, blk, packed_a_[t].data(), packed_b_.data());
        }
        sync_.arrive_and_wait();
      }
    }
  }

  const Problem& p_;
  const Kernel kern_;  // a copy: the choice stays fixed for the whole product
  int threads_;
  std::barrier<> sync_;
  std::int64_t mc_ = 0;
  std::int64_t row_blocks_ = 0;
  std::vector<float> packed_b_;
  std::vector<std::vector<float>> packed_a_;
};

}  // namespace

const char* cpu_sgemm_kernel_name() { return kernel().name; }

bool use_cpu_sgemm_kernel(const std::string& name) {
  for (const Kernel& k : kernels()) {
    if (k.name == name && cpu_supports(name)) {
      kernel() = k;
      return true;
    }
  }
  return false;
}

void cpu_sgemm(Transpose transpose_a, Transpose transpose_b, std::int64_t m, std::int64_t n,
               std::int64_t k, float alpha, const float* a, std::int64_t lda, const float* b,
               std::int64_t ldb, float beta, float* c, std::int64_t ldc, int threads) {
  if (m <= 0 || n <= 0) return;
  const Problem p{transpose_a, transpose_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc};
  if (k <= 0 || alpha == 0.0f) {
    scale_c(p);
    return;
  }
  // Threads beyond the row blocks would only wait at the barriers.
  const std::int64_t useful = std::max<std::int64_t>(1, (m + kernel().mr - 1) / kernel().mr);
  ParallelGemm(p, static_cast<int>(std::clamp<std::int64_t>(threads, 1, useful))).run();
}

}  // namespace gkebuild::workloads
