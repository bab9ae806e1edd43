// Machine-readable reports: the plain JSON list and SARIF 2.1.0 for code scanning.
#include <nlohmann/json.hpp>

#include "base/version.h"
#include "tool/steps/validate/report_format.h"
#include "tool/steps/validate/rules.h"

namespace gkebuild::validate {

namespace {
std::string dump(const nlohmann::json& value) {
  return value.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string sarif_level(Severity severity) {
  return severity == Severity::kError ? "error" : severity == Severity::kWarning ? "warning" : "note";
}
}  // namespace

std::string format_json(const ValidateReport& report) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& f : report.findings)
    list.push_back({{"file", f.file}, {"line", f.line}, {"column", f.column},
                    {"severity", to_string(f.severity)}, {"rule", f.rule}, {"message", f.message}});
  return dump(list);
}

std::string format_sarif(const ValidateReport& report) {
  nlohmann::json rules = nlohmann::json::array();
  std::map<std::string, int, std::less<>> index;
  for (const auto& rule : all_rules()) {
    index[std::string(rule.id)] = static_cast<int>(rules.size());
    rules.push_back({{"id", rule.id},
                     {"shortDescription", {{"text", rule.summary}}},
                     {"help", {{"text", rule.fix}}},
                     {"defaultConfiguration", {{"level", sarif_level(rule.severity)}}}});
  }
  nlohmann::json results = nlohmann::json::array();
  for (const auto& f : report.findings) {
    nlohmann::json region = {{"startLine", std::max(f.line, 1)}, {"startColumn", std::max(f.column, 1)}};
    nlohmann::json result = {
        {"ruleId", f.rule},
        {"level", sarif_level(f.severity)},
        {"message", {{"text", f.message}}},
        {"locations", {{{"physicalLocation", {{"artifactLocation", {{"uri", f.file == "<stdin>" ? "stdin" : f.file}}},
                                               {"region", region}}}}}}};
    if (auto it = index.find(f.rule); it != index.end()) result["ruleIndex"] = it->second;
    results.push_back(std::move(result));
  }
  nlohmann::json driver = {{"name", "gkebuild"}, {"version", kVersion},
                           {"informationUri", "https://github.com/gkebuild/gkebuild"}, {"rules", rules}};
  nlohmann::json sarif = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                          {"version", "2.1.0"},
                          {"runs", {{{"tool", {{"driver", driver}}}, {"results", results}}}}};
  return dump(sarif);
}

}  // namespace gkebuild::validate
