// One thing `gkebuild validate` reports: where, how bad, which rule, what to do.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gkebuild::validate {

enum class Severity { kInfo = 0, kWarning = 1, kError = 2 };

std::string_view to_string(Severity severity);
// "error", "warning" ("warn"), "info"; nullopt for anything else.
std::optional<Severity> parse_severity(std::string_view text);

struct Finding {
  std::string file;  // as the user named it; "<stdin>" for standard input
  int line = 0;      // 1-based, in the file (not the document); 0 when unknown
  int column = 0;    // 1-based
  Severity severity = Severity::kError;
  std::string rule;  // e.g. "schema", "gpu-request-without-limit"
  std::string message;
};

}  // namespace gkebuild::validate
