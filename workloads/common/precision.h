// The number formats the GPU benchmarks run: FP32, TF32 (FP32 data on tensor cores), FP16
// and BF16 (16-bit data, FP32 accumulation).
#pragma once

#include <string>
#include <vector>

namespace gkebuild::workloads {

enum class Precision { fp32, tf32, fp16, bf16 };

const std::vector<std::string>& precision_names();
std::string to_string(Precision precision);

// Throws UsageError "unknown precision 'x': expected fp32, tf32, fp16 or bf16 (did you mean…)".
Precision parse_precision(const std::string& text);

// "fp32,bf16" or several --precision options, each parsed; duplicates dropped.
std::vector<Precision> parse_precisions(const std::vector<std::string>& texts);

// Error allowed for a sum of products computed in `precision`, relative to the sum of the
// products' magnitudes (Σ|a·b|), the scale that does not depend on cancellation.
double product_tolerance(Precision precision);

}  // namespace gkebuild::workloads
