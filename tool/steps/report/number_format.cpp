#include "tool/steps/report/number_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gkebuild::report {

std::string format_number(double value, int significant) {
  if (value == 0) return "0";
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";  // a modified z-score with MAD 0
  int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  int decimals = std::max(0, significant - 1 - magnitude);
  // Rounding may carry into the next power of ten (9.9996 -> 10.00): one decimal fewer then.
  double rounded = std::round(value * std::pow(10.0, decimals)) / std::pow(10.0, decimals);
  if (decimals > 0 && std::floor(std::log10(std::fabs(rounded))) > magnitude) --decimals;
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  std::string text = buffer;
  // 1.500 -> 1.5: trailing zeros add no information in a table.
  if (text.find('.') != std::string::npos) {
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.') text.pop_back();
  }
  return text;
}

std::string format_usd(std::optional<double> value) {
  if (!value) return "n/a";
  return "$" + format_number(*value);
}

std::string format_ratio(std::optional<double> value) {
  if (!value) return "n/a";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2fx", *value);
  return buffer;
}

std::string format_duration(double seconds) {
  if (seconds > 5 * 3600) return format_number(seconds / 3600, 3) + " h";
  if (seconds > 600) return format_number(seconds / 60, 3) + " min";
  return format_number(seconds, 3) + " s";
}

}  // namespace gkebuild::report

namespace gkebuild::report {

std::string count_of(std::size_t count, const std::string& noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

}  // namespace gkebuild::report
