// Timed repetitions and the two result lines every benchmark writes from them.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "workloads/common/results.h"
#include "workloads/common/stats.h"

namespace gkebuild::workloads {

// Runs `work` warmup times untimed, then `repetitions` times, each timed on the host's steady
// clock (the CPU paths; GPU paths time with CUDA events).
std::vector<double> time_on_host(int warmup, int repetitions, const std::function<void()>& work);

// Writes "throughput" (TFLOP/s from the median, min/max spread plus `extra`) and "time" (ms:
// median, min, max, mean) lines for `flops` of work; `base` gives precision and shape.
// Returns the summary for a human line.
Summary write_timing(ResultWriter& writer, Measurement base, const std::vector<double>& seconds, double flops,
                     const nlohmann::json& extra);

// "702.4 TFLOP/s", or "15.3 GFLOP/s" below one TFLOP/s (the CPU paths), for human lines.
std::string rate_text(double flops_per_second);

}  // namespace gkebuild::workloads
