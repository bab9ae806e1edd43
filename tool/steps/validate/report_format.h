// The report formats: compiler-style text, JSON, JUnit XML, SARIF 2.1.0, GitHub
// Actions workflow commands and TAP 13. Each returns the whole text for standard output.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "tool/steps/validate/validator.h"

namespace gkebuild::validate {

enum class OutputFormat { kText, kJson, kJunit, kSarif, kGithub, kTap };

std::optional<OutputFormat> parse_output_format(std::string_view name);

// Findings sorted by file, line and column; then rendered.
std::string format_report(ValidateReport report, OutputFormat format);

std::string format_text(const ValidateReport& report);
std::string format_json(const ValidateReport& report);
std::string format_junit(const ValidateReport& report);
std::string format_sarif(const ValidateReport& report);
std::string format_github(const ValidateReport& report);
// One test point per file (kubeconform has one per object): "not ok" when it has errors.
std::string format_tap(const ValidateReport& report);

// kubeconform's -summary line: "Summary: 3 resources found in 2 files - Valid: 1,
// Invalid: 1, Errors: 0, Skipped: 1".
std::string format_summary(const ValidateReport& report);

}  // namespace gkebuild::validate
