// JUnit XML for CI test reporters: one test case per file, failing when the file
// has errors, with every finding of the file in the failure text.
#include <map>

#include "base/xml_escape.h"
#include "tool/steps/validate/report_format.h"

namespace gkebuild::validate {

std::string format_junit(const ValidateReport& report) {
  std::map<std::string, std::vector<const Finding*>> by_file;
  for (const auto& name : report.file_names) by_file[name];
  for (const auto& f : report.findings) by_file[f.file].push_back(&f);
  int failures = 0;
  std::string cases;
  for (const auto& [file, findings] : by_file) {
    std::string body;
    bool failed = false;
    for (const auto* f : findings) {
      failed = failed || f->severity == Severity::kError;
      body += f->file + ":" + std::to_string(f->line) + ":" + std::to_string(f->column) + ": " +
              std::string(to_string(f->severity)) + ": " + f->message + " [" + f->rule + "]\n";
    }
    cases += "    <testcase classname=\"gkebuild.validate\" name=\"" + xml_escape(file) + "\">\n";
    if (findings.empty()) {
      // A clean file: the test case passes with no body.
    } else if (failed) {
      ++failures;
      cases += "      <failure message=\"" + xml_escape(findings.front()->message) + "\" type=\"" +
               xml_escape(findings.front()->rule) + "\">" + xml_escape(body) + "</failure>\n";
    } else {
      cases += "      <system-out>" + xml_escape(body) + "</system-out>\n";
    }
    cases += "    </testcase>\n";
  }
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n";
  out += "  <testsuite name=\"gkebuild validate\" tests=\"" + std::to_string(by_file.size()) +
         "\" failures=\"" + std::to_string(failures) + "\" errors=\"0\">\n";
  out += cases;
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

}  // namespace gkebuild::validate
