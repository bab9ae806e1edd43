// The semantic rules JSON schema cannot express: GPU resources, GKE accelerator
// scheduling, driver installers, batch Jobs holding GPUs, deprecated APIs. Every rule
// is a row of rule_table.h (id, severity, summary, fix, example); a check reports it by id
// through a RuleReporter, which drops disabled rules and adds the fix.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "tool/steps/validate/finding.h"
#include "tool/steps/validate/manifest.h"
#include "tool/steps/validate/rule_table.h"
#include "tool/steps/validate/schema_names.h"

namespace gkebuild::validate {

// Every rule gkebuild validate knows, schema and YAML checks included (kRules).
const std::vector<RuleInfo>& all_rules();
const RuleInfo* find_rule(std::string_view id);
// The ids of all_rules(), for "did you mean" and the docs check.
std::vector<std::string> rule_ids();

// The annotation that turns rules off for one object: "rule-a,rule-b".
inline constexpr std::string_view kDisableAnnotation = "gkebuild.io/disable-rules";

// Collects findings for one object, dropping disabled rules and adding the fix.
class RuleReporter {
 public:
  RuleReporter(const Manifest& manifest, const std::set<std::string, std::less<>>& disabled,
               std::vector<Finding>& out);
  // The reporter keeps a reference to `disabled`: a temporary set would dangle.
  RuleReporter(const Manifest&, std::set<std::string, std::less<>>&&, std::vector<Finding>&) = delete;

  bool enabled(RuleId rule) const;
  // `severity` overrides the rule's own (e.g. unknown kinds under --strict-kinds).
  void report(RuleId rule, const Path& path, const std::string& message, bool at_key = false,
              std::optional<Severity> severity = std::nullopt);
  const Manifest& manifest() const { return manifest_; }

 private:
  std::string misspelt_in_annotation(std::string_view rule) const;

  const Manifest& manifest_;
  const std::set<std::string, std::less<>>& disabled_;
  std::set<std::string, std::less<>> disabled_here_;  // from the object's annotation
  std::vector<Finding>& out_;
};

// GPU and batch rules for one object.
void check_gpu_rules(RuleReporter& reporter);
// object-name: metadata.name against its kind's naming rule (object_names.cpp).
void check_object_name(RuleReporter& reporter);
// Deprecated or removed apiVersion for `version`; returns true when the API is removed.
bool check_api_version(RuleReporter& reporter, const KubernetesVersion& version);

}  // namespace gkebuild::validate
