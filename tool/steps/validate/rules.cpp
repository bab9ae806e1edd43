#include "tool/steps/validate/rules.h"

#include <algorithm>

#include "base/printable.h"
#include "base/suggest.h"

namespace gkebuild::validate {

const std::vector<RuleInfo>& all_rules() {
  static const std::vector<RuleInfo> rules(kRules.begin(), kRules.end());
  return rules;
}

const RuleInfo* find_rule(std::string_view id) {
  const auto& rules = all_rules();
  auto it = std::find_if(rules.begin(), rules.end(), [&](const RuleInfo& r) { return r.id == id; });
  return it == rules.end() ? nullptr : &*it;
}

std::vector<std::string> rule_ids() {
  std::vector<std::string> ids;
  for (const auto& rule : all_rules()) ids.emplace_back(rule.id);
  return ids;
}

namespace {
std::set<std::string, std::less<>> annotation_rules(const nlohmann::json& value) {
  std::set<std::string, std::less<>> out;
  const auto pointer = nlohmann::json::json_pointer("/metadata/annotations");
  if (!value.is_object() || !value.contains(pointer)) return out;
  const auto& annotations = value.at(pointer);
  if (!annotations.is_object()) return out;
  auto it = annotations.find(std::string(kDisableAnnotation));
  if (it == annotations.end() || !it->is_string()) return out;
  std::string list = it->get<std::string>();
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    std::string item = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (!item.empty()) out.insert(item);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}
}  // namespace

RuleReporter::RuleReporter(const Manifest& manifest, const std::set<std::string, std::less<>>& disabled,
                           std::vector<Finding>& out)
    : manifest_(manifest), disabled_(disabled), disabled_here_(annotation_rules(manifest.value)), out_(out) {}

// " (the gkebuild.io/disable-rules annotation names 'gpu-limt': did you mean 'gpu-limit'?)" when
// the object's annotation meant to turn `rule` off but misspelt it; "" otherwise.
std::string RuleReporter::misspelt_in_annotation(std::string_view rule) const {
  const std::vector<std::string> ids = rule_ids();
  for (const auto& named : disabled_here_) {
    if (find_rule(named) || closest_match(named, ids) != std::string(rule)) continue;
    return " (the " + std::string(kDisableAnnotation) + " annotation names '" + printable(named) +
           "': did you mean '" + std::string(rule) + "'?)";
  }
  return "";
}

bool RuleReporter::enabled(RuleId id) const {
  const std::string_view rule = id;
  return !disabled_.count(rule) && !disabled_here_.count(rule);
}

void RuleReporter::report(RuleId id, const Path& path, const std::string& message, bool at_key,
                          std::optional<Severity> severity) {
  if (!enabled(id)) return;
  const std::string_view rule = id;
  const RuleInfo& info = *find_rule(rule);  // a RuleId is a row of kRules
  Position p = manifest_.position(path, at_key);
  std::string text = message;
  if (rule != "schema" && rule != "yaml-syntax") text += "; fix: " + std::string(info.fix);
  text += misspelt_in_annotation(rule);
  Severity level = severity.value_or(info.severity);
  out_.push_back({manifest_.file, p.line, p.column, level,
                  std::string(rule), std::move(text)});
}

}  // namespace gkebuild::validate
