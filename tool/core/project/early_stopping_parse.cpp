// `earlyStopping:` of an experiment: which metric the follower watches, and when it stops a point
// (docs/project-file.md#early-stopping). Its metric and goal are the search's objective when the
// experiment has one (one source of truth); given beside it, they must say the same.
#include "base/printable.h"
#include "tool/core/project/parse_helpers.h"
#include "tool/core/yamlfile/fields.h"
#include "tool/core/yamlfile/scalars.h"

namespace gkebuild::project::detail {
namespace {

// The rule's metric and goal: its own, the search's objective, or both when they agree.
Objective stopping_objective(const yamlfile::Fields& stopping, const Experiment& experiment) {
  const yamlfile::Document& doc = stopping.document();
  const bool searched = experiment.search && experiment.search->objective;
  if (!stopping.has("metric")) {
    if (!searched)
      doc.fail(stopping.node(), stopping.what() + ": give metric (and goal), or the search an objective: {metric, goal}");
    if (stopping.has("goal"))
      doc.fail(stopping.get("goal"), stopping.name("goal") + ": the search's objective gives the goal; drop it here");
    return *experiment.search->objective;
  }
  Objective own = parse_objective(stopping);
  if (searched && (own.metric != experiment.search->objective->metric ||
                   own.minimize != experiment.search->objective->minimize))
    doc.fail(stopping.get("metric"), stopping.name("metric") + ": '" + printable(own.metric) + "' (" +
                                         (own.minimize ? "minimize" : "maximize") +
                                         ") differs from the search's objective; drop metric and goal here");
  return own;
}

}  // namespace

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
                                                                                      "median is (halving is a search "
                                                                                      "algorithm: search.algorithm)");
  if (experiment.search && experiment.search->algorithm == SearchAlgorithm::Halving)
    doc.fail(node, stopping.what() + ": the search's halving stops points already; one rule stops them, not two");
  rule.objective = stopping_objective(stopping, experiment);
  rule.warmup = static_cast<double>(stopping.integer("warmup", 1, 0));
  rule.min_points = static_cast<int>(stopping.integer("minPoints", 3, 1));
  experiment.early_stopping = rule;
}

}  // namespace gkebuild::project::detail
