// CPU SGEMM of the workloads (common/cpu_gemm) beside OpenBLAS's cblas_sgemm, same sizes,
// same inputs, same thread count, in one run: GFLOP/s of each (median of the repetitions),
// the ratio, and the largest difference between the two results.
// Usage: gemm-vs-openblas [--library both|ours|openblas] [--threads N] [--reps N] [SIZE…]
#include <cblas.h>
#include <sys/resource.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "workloads/common/cpu_gemm.h"
#include "workloads/common/random_values.h"
#include "workloads/common/stats.h"
#include "workloads/common/timing.h"
#include "workloads/common/thread_count.h"

using namespace gkebuild::workloads;

namespace {

struct Options {
  std::string library = "both";
  int threads = 0;
  int reps = 5;
  std::vector<int> sizes;
};

// One warm-up (page faults, OpenBLAS buffers, thread start), then the median of `reps`.
double median_seconds(int reps, const std::function<void()>& multiply) {
  return summarize(time_on_host(1, reps, multiply)).median;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--library" && i + 1 < argc) o.library = argv[++i];
    else if (arg == "--threads" && i + 1 < argc) o.threads = std::atoi(argv[++i]);
    else if (arg == "--reps" && i + 1 < argc) o.reps = std::max(1, std::atoi(argv[++i]));
    else if (std::atoi(arg.c_str()) > 0) o.sizes.push_back(std::atoi(arg.c_str()));
    else {
      std::fprintf(stderr, "usage: gemm-vs-openblas [--library both|ours|openblas] [--threads N] [--reps N] [SIZE…]\n");
      std::exit(2);
    }
  }
  if (o.sizes.empty()) o.sizes = {256, 511, 1024, 2048, 3001};
  o.threads = thread_count(o.threads);
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const bool ours = o.library != "openblas", theirs = o.library != "ours";
  openblas_set_num_threads(o.threads);
  const char* coretype = std::getenv("OPENBLAS_CORETYPE");
  std::printf("threads %d, our kernel %s, OpenBLAS core %s (OPENBLAS_CORETYPE=%s), %d repetitions, median\n",
              o.threads, cpu_sgemm_kernel_name(), openblas_get_corename(), coretype ? coretype : "unset", o.reps);
  std::printf("%8s %14s %14s %8s %12s\n", "size", "ours GFLOP/s", "OpenBLAS", "ratio", "max diff");
  for (int n : o.sizes) {
    const auto a = random_values(std::int64_t{n} * n, 1);
    const auto b = random_values(std::int64_t{n} * n, 2);
    std::vector<float> c_ours(a.size()), c_blas(a.size());
    const double flops = 2.0 * n * double(n) * n;
    double ours_rate = 0, blas_rate = 0, diff = 0;
    if (ours) {
      ours_rate = flops / median_seconds(o.reps, [&] {
        cpu_sgemm(Transpose::no, Transpose::no, n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, c_ours.data(), n, o.threads);
      }) / 1e9;
    }
    if (theirs) {
      blas_rate = flops / median_seconds(o.reps, [&] {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f,
                    c_blas.data(), n);
      }) / 1e9;
    }
    if (ours && theirs) {
      for (std::size_t i = 0; i < a.size(); ++i) diff = std::max(diff, double(std::fabs(c_ours[i] - c_blas[i])));
      std::printf("%8d %14.1f %14.1f %8.2f %12.2e\n", n, ours_rate, blas_rate, ours_rate / blas_rate, diff);
    } else {
      std::printf("%8d %14.1f %14.1f %8s %12s\n", n, ours_rate, blas_rate, "-", "-");
    }
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf("peak memory (resident, whole run): %.1f MiB\n", usage.ru_maxrss / 1024.0);
  return 0;
}
