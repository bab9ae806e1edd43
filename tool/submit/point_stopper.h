// What stops a point of a run early, fed every result line by whoever follows the run (the
// cluster follower, the --managed controller, the local runner): the median rule of
// `earlyStopping:` (early_stopping.h) or the rungs of `search.algorithm: halving`
// (successive_halving.h). A stopped point is stopped cleanly and recorded `stopped` with the
// rule's reason; the run does not fail for it.
#pragma once

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tool/core/project/project.h"

namespace gkebuild::submit {

class PointStopper {
 public:
  virtual ~PointStopper() = default;
  // A result line (schema gkebuild.workload.v1) of `job`'s pod; returns the points to stop now,
  // each with why. Lines of other metrics, or without a step (or epoch), are ignored.
  virtual std::vector<std::pair<std::string, std::string>> observe(const std::string& job,
                                                                   const nlohmann::json& result) = 0;
  // `job` ended (stopped, or finished): it is judged no more, its values still count.
  virtual void ended(const std::string& job) = 0;
};

// `search.algorithm: halving` with the search's objective: what the controller's plan carries.
struct HalvingRule {
  project::Objective objective;
  project::Halving halving;
};

// The halving rule of an experiment whose search is `algorithm: halving`; nullopt otherwise.
std::optional<HalvingRule> halving_rule(const project::Experiment& experiment);

// The rule that stops points of a run: the median rule, halving, or none (null). The parser lets
// an experiment have one of them at most.
std::shared_ptr<PointStopper> point_stopper(const std::optional<project::EarlyStopping>& median,
                                            const std::optional<HalvingRule>& halving);

// The value of the objective's metric and the step of a result line, when it is a line of that
// metric with a `step` (or `epoch`) at the top level or under `extra` (as the report reads it).
std::optional<std::pair<double, double>> step_and_value(const nlohmann::json& result, const std::string& metric);

// A number as the reasons write it: 6 significant digits.
std::string reason_number(double value);

}  // namespace gkebuild::submit
