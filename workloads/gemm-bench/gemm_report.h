// The result lines of one measured precision: throughput, time and the sample check.
#pragma once

#include <vector>

#include "workloads/common/results.h"
#include "workloads/gemm-bench/gemm_check.h"
#include "workloads/gemm-bench/gemm_config.h"

namespace gkebuild::workloads {

// Writes the lines and a human summary on stderr; returns false when the check failed
// (the caller exits 1: a wrong result has no speed).
bool report_gemm(ResultWriter& writer, const GemmConfig& config, Precision precision,
                 const std::vector<double>& seconds, const GemmCheck& check,
                 const nlohmann::json& extra);

}  // namespace gkebuild::workloads
