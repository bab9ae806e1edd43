// Single-precision matrix product on the CPU: blocked (packed panels sized for the caches),
// multi-threaded, with a register-tiled micro-kernel picked at run time for the CPU's vector
// width (AVX-512, AVX2+FMA, or portable 128-bit vectors).
#pragma once

#include <cstdint>
#include <string>

namespace gkebuild::workloads {

enum class Transpose { no, yes };

// Row-major C(m×n) = alpha · op(A)(m×k) · op(B)(k×n) + beta · C.
// op(A) is A (m×k, row stride lda ≥ k) or Aᵀ of a stored k×m matrix (lda ≥ m); same for B.
// With beta == 0, C is not read (it may hold anything, NaN included).
// Any size ≥ 0 works, including 1×1×1 and sizes that do not fill a tile.
void cpu_sgemm(Transpose transpose_a, Transpose transpose_b, std::int64_t m, std::int64_t n,
               std::int64_t k, float alpha, const float* a, std::int64_t lda, const float* b,
               std::int64_t ldb, float beta, float* c, std::int64_t ldc, int threads);

// The micro-kernel the dispatcher picked here: "avx512", "avx2" or "generic".
const char* cpu_sgemm_kernel_name();

// Uses the named kernel from now on (tests run every kernel the CPU can); false when the CPU
// cannot run it or no kernel has that name. Not to be called while a product runs.
bool use_cpu_sgemm_kernel(const std::string& name);

}  // namespace gkebuild::workloads
