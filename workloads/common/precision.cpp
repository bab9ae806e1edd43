#include "workloads/common/precision.h"

#include <algorithm>

#include "base/suggest.h"
#include "workloads/common/errors.h"

namespace gkebuild::workloads {

const std::vector<std::string>& precision_names() {
  static const std::vector<std::string> names{"fp32", "tf32", "fp16", "bf16"};
  return names;
}

std::string to_string(Precision precision) {
  return precision_names()[static_cast<std::size_t>(precision)];
}

Precision parse_precision(const std::string& text) {
  const auto& names = precision_names();
  const auto found = std::find(names.begin(), names.end(), text);
  if (found == names.end()) {
    throw UsageError("unknown precision '" + text + "': expected fp32, tf32, fp16 or bf16" +
                     did_you_mean(text, names));
  }
  return static_cast<Precision>(found - names.begin());
}

std::vector<Precision> parse_precisions(const std::vector<std::string>& texts) {
  std::vector<Precision> result;
  for (const std::string& text : texts) {
    std::size_t start = 0;
    while (start <= text.size()) {
      const std::size_t comma = std::min(text.find(',', start), text.size());
      const Precision p = parse_precision(text.substr(start, comma - start));
      if (std::find(result.begin(), result.end(), p) == result.end()) result.push_back(p);
      start = comma + 1;
    }
  }
  if (result.empty()) throw UsageError("no precision given");
  return result;
}

double product_tolerance(Precision precision) {
  switch (precision) {
    case Precision::fp32: return 1e-4;  // k·eps bounds it; typical errors are far below
    case Precision::tf32: return 5e-3;  // 10-bit mantissa inputs
    case Precision::fp16: return 5e-3;  // 11-bit mantissa result
    case Precision::bf16: return 2e-2;  // 8-bit mantissa result
  }
  return 0;
}

}  // namespace gkebuild::workloads
