// `earlyStopping:` of an experiment: which metric the follower watches, and when it stops a point
// (docs/project-file.md#early-stopping).
#include "base/printable.h"
#include "tool/core/project/parse_helpers.h"
#include "tool/core/yamlfile/fields.h"
#include "tool/core/yamlfile/scalars.h"

namespace gkebuild::project::detail {

void parse_early_stopping(const yamlfile::Fields& fields, Experiment& experiment) {
  const yamlfile::Document& doc = fields.document();
  const YAML::Node node = fields.get("earlyStopping");
  yamlfile::Fields stopping(doc, node, fields.name("earlyStopping"), {"rule", "metric", "goal", "warmup", "minPoints"});
  if (!node.IsMap()) doc.fail(node, stopping.what() + ": expected a mapping such as {rule: median, metric: val_loss}");
  EarlyStopping rule;
  rule.where = doc.where(node);
  const std::string kind = stopping.string("rule", "median");
  if (kind != "median")
    doc.fail(stopping.get("rule"), stopping.name("rule") + ": '" + printable(kind) + "' is not a rule gkebuild has; "
                                                                                      "median is (halving is not yet)");
  rule.metric = stopping.required_string("metric");
  const std::string goal = stopping.string("goal", "minimize");
  if (goal != "minimize" && goal != "maximize")
    doc.fail(stopping.get("goal"), stopping.name("goal") + ": expected minimize or maximize, got '" + printable(goal) + "'");
  rule.minimize = goal == "minimize";
  rule.warmup = static_cast<double>(stopping.integer("warmup", 1, 0));
  rule.min_points = static_cast<int>(stopping.integer("minPoints", 3, 1));
  experiment.early_stopping = rule;
}

}  // namespace gkebuild::project::detail
