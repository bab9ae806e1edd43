#include "workloads/common/timing.h"

#include <chrono>
#include <cstdio>

namespace gkebuild::workloads {

std::vector<double> time_on_host(int warmup, int repetitions, const std::function<void()>& work) {
  for (int i = 0; i < warmup; ++i) work();
  std::vector<double> seconds;
  for (int i = 0; i < repetitions; ++i) {
    const auto start = std::chrono::steady_clock::now();
    work();
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return seconds;
}

Summary write_timing(ResultWriter& writer, Measurement m, const std::vector<double>& seconds, double flops,
                     const nlohmann::json& extra) {
  const Summary time = summarize(seconds);
  m.repetitions = static_cast<int>(time.count);
  m.metric = "throughput";
  m.value = flops / time.median / 1e12;
  m.unit = "TFLOP/s";
  m.extra = extra;
  m.extra["min"] = flops / time.max / 1e12;
  m.extra["max"] = flops / time.min / 1e12;
  writer.write(m);
  m.metric = "time";
  m.value = time.median * 1e3;
  m.unit = "ms";
  m.extra = {{"min", time.min * 1e3}, {"max", time.max * 1e3}, {"mean", time.mean * 1e3}};
  writer.write(m);
  return time;
}

std::string rate_text(double flops_per_second) {
  char text[40];
  if (flops_per_second >= 1e12) {
    std::snprintf(text, sizeof(text), "%.1f TFLOP/s", flops_per_second / 1e12);
  } else {
    std::snprintf(text, sizeof(text), "%.1f GFLOP/s", flops_per_second / 1e9);
  }
  return text;
}

}  // namespace gkebuild::workloads
