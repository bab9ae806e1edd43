#include "validate/report_format.h"

#include <algorithm>
#include <tuple>

#include "base/printable.h"

namespace gkebuild::validate {

std::optional<OutputFormat> parse_output_format(std::string_view name) {
  if (name == "text") return OutputFormat::kText;
  if (name == "json") return OutputFormat::kJson;
  if (name == "junit") return OutputFormat::kJunit;
  if (name == "sarif") return OutputFormat::kSarif;
  if (name == "github") return OutputFormat::kGithub;
  return std::nullopt;
}

std::string format_report(ValidateReport report, OutputFormat format) {
  std::stable_sort(report.findings.begin(), report.findings.end(), [](const Finding& a, const Finding& b) {
    return std::tie(a.file, a.line, a.column) < std::tie(b.file, b.line, b.column);
  });
  switch (format) {
    case OutputFormat::kText: return format_text(report);
    case OutputFormat::kJson: return format_json(report);
    case OutputFormat::kJunit: return format_junit(report);
    case OutputFormat::kSarif: return format_sarif(report);
    case OutputFormat::kGithub: return format_github(report);
  }
  return format_text(report);
}

std::string format_text(const ValidateReport& report) {
  std::string out;
  for (const auto& f : report.findings)
    // Messages quote the manifests (field names, values): a terminal gets them printable.
    out += printable(f.file) + ":" + std::to_string(f.line) + ":" + std::to_string(f.column) + ": " +
           std::string(to_string(f.severity)) + ": " + printable(f.message) + " [" + f.rule + "]\n";
  return out;
}

namespace {
// Workflow command data: %, CR and LF escaped; properties also escape ':' and ','.
std::string escape_github(std::string_view text, bool property) {
  std::string out;
  for (char c : text) {
    if (c == '%') out += "%25";
    else if (c == '\r') out += "%0D";
    else if (c == '\n') out += "%0A";
    else if (property && c == ':') out += "%3A";
    else if (property && c == ',') out += "%2C";
    else out += c;
  }
  return out;
}
}  // namespace

std::string format_github(const ValidateReport& report) {
  std::string out;
  for (const auto& f : report.findings) {
    const char* level = f.severity == Severity::kError ? "error" : f.severity == Severity::kWarning ? "warning" : "notice";
    out += std::string("::") + level + " file=" + escape_github(f.file, true) + ",line=" + std::to_string(f.line) +
           ",col=" + std::to_string(f.column) + ",title=" + escape_github("gkebuild " + f.rule, true) +
           "::" + escape_github(printable(f.message) + " [" + f.rule + "]", false) + "\n";
  }
  return out;
}

}  // namespace gkebuild::validate
