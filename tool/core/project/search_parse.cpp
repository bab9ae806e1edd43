// `search:` and `budget:` of an experiment.
#include <algorithm>
#include <cmath>

#include "base/printable.h"
#include "base/suggest.h"
#include "tool/core/project/parse_helpers.h"
#include "tool/core/search/sobol.h"
#include "tool/core/yamlfile/fields.h"
#include "tool/core/yamlfile/scalars.h"
#include "tool/core/yamlfile/to_json.h"

namespace gkebuild::project::detail {
namespace {

using yamlfile::Document;
using yamlfile::Fields;

constexpr int kMostTrials = 100000;

SearchAlgorithm read_algorithm(const Fields& fields) {
  const std::string text = fields.string("algorithm", "random");
  if (text == "random") return SearchAlgorithm::Random;
  if (text == "sobol") return SearchAlgorithm::Sobol;
  if (text == "halving") return SearchAlgorithm::Halving;
  fields.document().fail(fields.get("algorithm"), fields.name("algorithm") + ": expected random, sobol or halving, got '" +
                                                      printable(text) + "'" +
                                                      did_you_mean(text, {"random", "sobol", "halving"}));
}

double finite_number(const Fields& fields, const std::string& key) {
  const double value = yamlfile::as_number(fields.document(), fields.required(key), fields.name(key));
  if (!std::isfinite(value)) fields.document().fail(fields.get(key), fields.name(key) + ": must be a finite number");
  return value;
}

void read_choices(const Fields& fields, SearchVariable& variable) {
  const Document& doc = fields.document();
  for (const char* key : {"min", "max", "log", "integer"})
    if (fields.has(key))
      doc.fail(fields.get(key), fields.name(key) + ": a variable is either a range (min, max) or a list of choices, "
                                                   "not both");
  const YAML::Node list = fields.get("choices");
  if (!list.IsSequence() || list.size() == 0)
    doc.fail(list, fields.name("choices") + ": expected a non-empty list of values" +
                       (list.IsSequence() ? std::string() : ", got " + yamlfile::describe(list)));
  for (const auto& item : list) {
    if (!item.IsScalar()) doc.fail(item, fields.name("choices") + ": values must be strings or numbers");
    variable.choices.push_back(yamlfile::to_json(item));
  }
}

void read_range(const Fields& fields, SearchVariable& variable) {
  const Document& doc = fields.document();
  variable.integer = fields.boolean("integer", false);
  variable.log = fields.boolean("log", false);
  if (variable.integer) {
    // Integer ends are read as integers: 32.5 is not an end of an integer range.
    variable.min = static_cast<double>(yamlfile::as_integer(doc, fields.required("min"), fields.name("min")));
    variable.max = static_cast<double>(yamlfile::as_integer(doc, fields.required("max"), fields.name("max")));
    if (std::abs(variable.min) > 0x1p52 || std::abs(variable.max) > 0x1p52)
      doc.fail(fields.get("max"), fields.what() + ": integer ends must lie within +-2^52");
    if (variable.log)
      doc.fail(fields.get("log"), fields.name("log") + ": log: is for real ranges; an integer range is sampled "
                                                       "uniformly (drop log: or integer:)");
  } else {
    variable.min = finite_number(fields, "min");
    variable.max = finite_number(fields, "max");
  }
  if (variable.min >= variable.max)
    doc.fail(fields.get("max"), fields.what() + ": max (" + printable(fields.get("max").Scalar()) +
                                    ") must be greater than min (" + printable(fields.get("min").Scalar()) + ")");
  if (variable.log && variable.min <= 0)
    doc.fail(fields.get("min"), fields.name("min") + ": a log range needs min > 0 (it is sampled uniformly over "
                                                     "[log min, log max])");
}

std::vector<SearchVariable> read_variables(const Fields& fields, const std::vector<SweepAxis>& sweep) {
  const Document& doc = fields.document();
  const std::string what = fields.name("variables");
  std::vector<SearchVariable> variables;
  for (const auto& [key, value] : entries(doc, fields.required("variables"), what)) {
    SearchVariable variable;
    variable.name = key.Scalar();
    variable.where = doc.where(key);
    require_variable_name(doc, key, variable.name, what, false);
    if (std::any_of(sweep.begin(), sweep.end(), [&](const SweepAxis& axis) { return axis.name == variable.name; }))
      doc.fail(key, what + ": " + in_quotes(variable.name) + " is a sweep axis too; give it in one place");
    const std::string name = what + "." + variable.name;
    if (!value.IsMap()) doc.fail(value, name + ": expected {min, max}, {min, max, log: true}, {min, max, integer: true} "
                                               "or {choices: [...]}, got " + yamlfile::describe(value));
    const Fields parts(doc, value, name, {"min", "max", "log", "integer", "choices"});
    if (parts.has("choices")) read_choices(parts, variable);
    else read_range(parts, variable);
    variables.push_back(std::move(variable));
  }
  if (variables.empty()) doc.fail(fields.get("variables"), what + ": expected at least one variable");
  return variables;
}

Halving read_halving(const Fields& search) {
  Halving halving;
  if (!search.has("halving")) return halving;
  const Document& doc = search.document();
  const YAML::Node node = search.get("halving");
  const Fields fields(doc, node, search.name("halving"),
                      {"minResource", "reductionFactor", "minEarlyStoppingRate", "maxResource"});
  if (!node.IsMap()) doc.fail(node, fields.what() + ": expected a mapping such as {minResource: 1, reductionFactor: 3}");
  halving.where = doc.where(node);
  halving.min_resource = static_cast<double>(fields.integer("minResource", 1, 1));
  halving.reduction_factor = static_cast<int>(fields.integer("reductionFactor", 3, 2));
  halving.min_early_stopping_rate = static_cast<int>(fields.integer("minEarlyStoppingRate", 0, 0));
  halving.max_resource = static_cast<double>(fields.integer("maxResource", 0, 0));
  if (fields.has("maxResource") && halving.max_resource <= halving.min_resource)
    doc.fail(fields.get("maxResource"), fields.name("maxResource") + ": must be greater than minResource (" +
                                            std::to_string(static_cast<long long>(halving.min_resource)) + "), or there is no rung");
  return halving;
}

}  // namespace

Objective parse_objective(const Fields& fields) {
  Objective objective;
  objective.where = fields.document().where(fields.get("metric"));
  objective.metric = fields.required_string("metric");
  const std::string goal = fields.string("goal", "minimize");
  if (goal != "minimize" && goal != "maximize")
    fields.document().fail(fields.get("goal"),
                           fields.name("goal") + ": expected minimize or maximize, got '" + printable(goal) + "'" +
                               did_you_mean(goal, {"minimize", "maximize"}));
  objective.minimize = goal == "minimize";
  return objective;
}

Search parse_search(const Fields& experiment_fields, const std::vector<SweepAxis>& sweep) {
  const Document& doc = experiment_fields.document();
  const YAML::Node node = experiment_fields.get("search");
  const Fields fields(doc, node, experiment_fields.name("search"), 
                     {"algorithm", "trials", "seed", "variables", "objective", "halving"});
  if (!node.IsMap()) doc.fail(node, fields.what() + ": expected a mapping (algorithm, trials, seed, variables)");
  Search search;
  search.where = doc.where(node);
  search.algorithm = read_algorithm(fields);
  const long long trials = yamlfile::as_integer(doc, fields.required("trials"), fields.name("trials"));
  if (trials < 1 || trials > kMostTrials)
    doc.fail(fields.get("trials"), fields.name("trials") + ": from 1 to " + std::to_string(kMostTrials));
  search.trials = static_cast<int>(trials);
  search.seed = static_cast<std::uint64_t>(fields.integer("seed", 0, 0));
  search.variables = read_variables(fields, sweep);
  if (fields.has("objective")) {
    const YAML::Node objective = fields.get("objective");
    const Fields parts(doc, objective, fields.name("objective"), {"metric", "goal"});
    if (!objective.IsMap())
      doc.fail(objective, parts.what() + ": expected a mapping such as {metric: val_loss, goal: minimize}");
    search.objective = parse_objective(parts);
    search.objective->where = doc.where(objective);
  }
  if (fields.has("halving") && search.algorithm != SearchAlgorithm::Halving)
    doc.fail(fields.get("halving"), fields.name("halving") + ": rungs are for algorithm: halving");
  search.halving = read_halving(fields);
  if (search.algorithm == SearchAlgorithm::Halving && !search.objective)
    doc.fail(fields.get("algorithm"), fields.name("algorithm") + ": halving keeps the best points at each rung; "
                                                                 "give the search an objective: {metric, goal}");
  if (search.algorithm == SearchAlgorithm::Sobol && search.variables.size() > search::kSobolMaxDimensions)
    doc.fail(fields.get("variables"), fields.name("variables") + ": Sobol' points have at most " +
                                          std::to_string(search::kSobolMaxDimensions) + " dimensions here, and " +
                                          std::to_string(search.variables.size()) + " variables are given");
  return search;
}

Budget parse_budget(const Fields& experiment_fields) {
  const Document& doc = experiment_fields.document();
  const YAML::Node node = experiment_fields.get("budget");
  const Fields fields(doc, node, experiment_fields.name("budget"), {"gpuHours", "usd"});
  if (!node.IsMap() || (!fields.has("gpuHours") && !fields.has("usd")))
    doc.fail(node, fields.what() + ": expected {gpuHours: H} and/or {usd: D}");
  Budget budget;
  budget.where = doc.where(node);
  auto read = [&](const char* key, std::optional<double>& out, SourceLocation& where) {
    if (!fields.has(key)) return;
    const double value = finite_number(fields, key);
    if (value <= 0) doc.fail(fields.get(key), fields.name(key) + ": must be greater than 0");
    out = value;
    where = doc.where(fields.get(key));
  };
  read("gpuHours", budget.gpu_hours, budget.gpu_hours_where);
  read("usd", budget.usd, budget.usd_where);
  return budget;
}

}  // namespace gkebuild::project::detail
