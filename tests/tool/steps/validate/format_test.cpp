// The report formats: text, JSON, JUnit, SARIF 2.1.0 regions, GitHub workflow commands.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tool/steps/validate/report_format.h"

namespace gkebuild::validate {
namespace {

ValidateReport sample() {
  ValidateReport r;
  r.files = 2;
  r.file_names = {"b.yaml", "clean.yaml"};
  r.findings.push_back({"b.yaml", 9, 5, Severity::kWarning, "job-gpu-no-ttl", "GPU Job has no ttl, 100%"});
  r.findings.push_back({"b.yaml", 3, 7, Severity::kError, "schema", "unknown field \"x\" <here>"});
  return r;
}

TEST(Formats, TextIsSortedCompilerStyle) {
  EXPECT_EQ(format_report(sample(), OutputFormat::kText),
            "b.yaml:3:7: error: unknown field \"x\" <here> [schema]\n"
            "b.yaml:9:5: warning: GPU Job has no ttl, 100% [job-gpu-no-ttl]\n");
}

TEST(Formats, JsonListsEveryField) {
  auto j = nlohmann::json::parse(format_report(sample(), OutputFormat::kJson));
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0], (nlohmann::json{{"file", "b.yaml"}, {"line", 3}, {"column", 7}, {"severity", "error"},
                                  {"rule", "schema"}, {"message", "unknown field \"x\" <here>"}}));
}

TEST(Formats, SarifHasRealRegionsAndRuleIndexes) {
  auto s = nlohmann::json::parse(format_report(sample(), OutputFormat::kSarif));
  EXPECT_EQ(s["version"], "2.1.0");
  const auto& run = s["runs"][0];
  const auto& result = run["results"][0];
  EXPECT_EQ(result["ruleId"], "schema");
  EXPECT_EQ(result["level"], "error");
  const auto& region = result["locations"][0]["physicalLocation"]["region"];
  EXPECT_EQ(region["startLine"], 3);
  EXPECT_EQ(region["startColumn"], 7);
  int index = result["ruleIndex"];
  EXPECT_EQ(run["tool"]["driver"]["rules"][index]["id"], "schema");
  EXPECT_EQ(run["results"][1]["level"], "warning");
}

TEST(Formats, GithubEscapesDataAndProperties) {
  std::string out = format_report(sample(), OutputFormat::kGithub);
  EXPECT_NE(out.find("::error file=b.yaml,line=3,col=7,title=gkebuild schema::unknown field"), std::string::npos);
  EXPECT_NE(out.find("100%25"), std::string::npos);
}

TEST(Formats, JunitHasOneCasePerFileAndEscapes) {
  std::string out = format_report(sample(), OutputFormat::kJunit);
  EXPECT_NE(out.find("tests=\"2\" failures=\"1\""), std::string::npos);
  EXPECT_NE(out.find("&lt;here&gt;"), std::string::npos);
  EXPECT_NE(out.find("name=\"clean.yaml\""), std::string::npos);
}

}  // namespace
}  // namespace gkebuild::validate
