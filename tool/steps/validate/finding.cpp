#include "tool/steps/validate/finding.h"

namespace gkebuild::validate {

std::string_view to_string(Severity severity) {
  switch (severity) {
    case Severity::kInfo: return "info";
    case Severity::kWarning: return "warning";
    case Severity::kError: return "error";
  }
  return "error";
}

std::optional<Severity> parse_severity(std::string_view text) {
  if (text == "error") return Severity::kError;
  if (text == "warning" || text == "warn") return Severity::kWarning;
  if (text == "info") return Severity::kInfo;
  return std::nullopt;
}

}  // namespace gkebuild::validate
