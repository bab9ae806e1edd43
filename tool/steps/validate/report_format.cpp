#include "tool/steps/validate/report_format.h"

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
  if (name == "tap") return OutputFormat::kTap;
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
    case OutputFormat::kTap: return format_tap(report);
  }
  return format_text(report);
}

namespace {
std::string text_line(const Finding& f) {
  // Messages quote the manifests (field names, values): a terminal gets them printable.
  return printable(f.file) + ":" + std::to_string(f.line) + ":" + std::to_string(f.column) + ": " +
         std::string(to_string(f.severity)) + ": " + printable(f.message) + " [" + f.rule + "]";
}
}  // namespace

std::string format_text(const ValidateReport& report) {
  std::string out;
  for (const auto& f : report.findings) out += text_line(f) + "\n";
  return out;
}

std::string format_tap(const ValidateReport& report) {
  std::string out = "TAP version 13\n";
  int number = 0;
  for (const auto& file : report.file_names) {
    std::string diagnostics;
    const Finding* first_error = nullptr;
    for (const auto& f : report.findings) {
      if (f.file != file) continue;
      diagnostics += "# " + text_line(f) + "\n";
      if (!first_error && f.severity == Severity::kError) first_error = &f;
    }
    out += std::string(first_error ? "not ok " : "ok ") + std::to_string(++number) + " - " + printable(file) +
           (first_error ? ": " + printable(first_error->message) : "") + "\n" + diagnostics;
  }
  return out + "1.." + std::to_string(number) + "\n";
}

std::string format_summary(const ValidateReport& report) {
  // Word for word as kubeconform prints it, "0 resource" included, so CI log parsers match.
  auto plural = [](int n, const char* word) { return std::to_string(n) + " " + word + (n > 1 ? "s" : ""); };
  int valid = report.resources - report.invalid - report.skipped;
  bool only_stdin = report.file_names.size() == 1 && report.file_names.front() == "<stdin>";
  return "Summary: " + plural(report.resources, "resource") +
         (only_stdin ? std::string(" found parsing stdin") : " found in " + plural(report.files, "file")) +
         " - Valid: " + std::to_string(valid) + ", Invalid: " + std::to_string(report.invalid) +
         ", Errors: " + std::to_string(report.errors) + ", Skipped: " + std::to_string(report.skipped) + "\n";
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
