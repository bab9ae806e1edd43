// The rule table (tool/steps/validate/rule_table.h) is the whole account of a rule: every row's
// example, validated as --list-rules shows it (`gkebuild validate -o json FLAGS FILE`), is
// reported under the row's id at the row's severity, and `--disable ID` silences it. A new rule is
// tested here by its row; rules_test.cpp keeps the cases an example cannot show.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "base/atomic_file.h"
#include "tests/common/run.h"
#include "tests/common/temp_dir.h"
#include "tool/steps/validate/rule_table.h"

namespace gkebuild::validate {
namespace {

using gkebuild::testing::run_gkebuild;
using gkebuild::testing::shell_quoted;

// The findings of `gkebuild validate -o json FLAGS` on a file holding `text`: rule -> severity.
std::multimap<std::string, std::string> findings(const std::string& text, const std::string& flags) {
  gkebuild::testing::TempDir dir;
  const auto file = dir.write("example.yaml", text + "\n");
  const auto result = run_gkebuild("validate -o json --fail-on never " + flags + " " + shell_quoted(file.string()));
  EXPECT_EQ(result.exit_code, 0) << result.all();
  std::multimap<std::string, std::string> out;
  for (const auto& finding : nlohmann::json::parse(result.out)) out.emplace(finding["rule"], finding["severity"]);
  return out;
}

TEST(ValidateRuleTable, EveryRuleReportsItsExampleAtItsSeverity) {
  for (const RuleInfo& rule : kRules) {
    const auto found = findings(std::string(rule.example), std::string(rule.example_flags));
    const auto [first, last] = found.equal_range(std::string(rule.id));
    ASSERT_NE(first, last) << rule.id << " does not report its example: " << rule.example;
    for (auto it = first; it != last; ++it) EXPECT_EQ(it->second, to_string(rule.severity)) << rule.id;
  }
}

TEST(ValidateRuleTable, DisablingARuleSilencesItOnItsExample) {
  for (const RuleInfo& rule : kRules) {
    const auto found = findings(std::string(rule.example),
                                std::string(rule.example_flags) + " --disable " + std::string(rule.id));
    EXPECT_EQ(found.count(std::string(rule.id)), 0u) << rule.id;
  }
}

TEST(ValidateRuleTable, IdsAreUniqueAndEveryRowIsComplete) {
  for (std::size_t i = 0; i < kRules.size(); ++i) {
    for (std::size_t j = i + 1; j < kRules.size(); ++j) EXPECT_NE(kRules[i].id, kRules[j].id);
    EXPECT_TRUE(is_rule_id(kRules[i].id));
    EXPECT_FALSE(kRules[i].summary.empty() || kRules[i].fix.empty() || kRules[i].example.empty()) << kRules[i].id;
    EXPECT_EQ(kRules[i].example.find('\n'), std::string_view::npos) << kRules[i].id << ": one line, as --list-rules shows it";
  }
  EXPECT_FALSE(is_rule_id("gpu-zeor"));
}

TEST(ValidateRuleTable, ListRulesShowsEachRowWithItsExample) {
  const auto listed = run_gkebuild("validate --list-rules").out;
  for (const RuleInfo& rule : kRules) {
    const std::string flags = rule.example_flags.empty() ? "" : " (" + std::string(rule.example_flags) + ")";
    EXPECT_NE(listed.find(std::string(rule.id) + " (" + std::string(to_string(rule.severity)) + "): " +
                          std::string(rule.summary) + "\n    fix: " + std::string(rule.fix) + "\n    example" + flags +
                          ": " + std::string(rule.example) + "\n"),
              std::string::npos)
        << rule.id;
  }
}

}  // namespace
}  // namespace gkebuild::validate
