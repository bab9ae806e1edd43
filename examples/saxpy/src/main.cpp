// saxpy [N]: y = 2*x + y over N floats (default 1<<20) on the GPU when one is visible, else on
// the CPU; prints one gkebuild.workload.v1 result line (the time) and checks the result.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "saxpy.h"

int main(int argc, char** argv) {
  const long n = argc > 1 ? std::atol(argv[1]) : 1L << 20;
  if (n <= 0 || n > (1L << 30)) {
    std::fprintf(stderr, "usage: saxpy [N], 0 < N <= 2^30\n");
    return 2;
  }
  std::vector<float> x(n), y(n);
  for (long i = 0; i < n; ++i) x[i] = static_cast<float>(i % 1000), y[i] = 1.0f;
  std::string device = "cpu", why;
  const auto start = std::chrono::steady_clock::now();
  const bool on_gpu = saxpy_gpu(2.0f, x, y, device, why);
  if (!on_gpu) {
    std::fprintf(stderr, "saxpy: CPU path (%s)\n", why.c_str());
    saxpy_cpu(2.0f, x, y);
  }
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  for (long i = 0; i < n; ++i) {
    if (std::fabs(y[i] - (2.0f * x[i] + 1.0f)) > 1e-3f) {
      std::fprintf(stderr, "saxpy: wrong result at %ld\n", i);
      return 1;
    }
  }
  std::printf(
      "{\"schema\":\"gkebuild.workload.v1\",\"workload\":\"saxpy\",\"device\":{\"kind\":\"%s\",\"name\":\"%s\"},"
      "\"precision\":\"fp32\",\"shape\":{\"n\":%ld},\"metric\":\"time\",\"value\":%.3f,\"unit\":\"ms\","
      "\"repetitions\":1}\n",
      on_gpu ? "cuda" : "cpu", device.c_str(), n, ms);
  return 0;
}
