// Median stopping (an experiment's `earlyStopping: {rule: median}`), the rule of Google Vizier
// (Golovin et al., 2017): a point is stopped at step s when its best value of the metric up to s
// is worse than the median of the other points' values at s, once s is past the warm-up and at
// least `min_points` other points have reached s. Every point that has reached s is judged again
// whenever another point reports s, so the order in which points report does not decide. Unlike
// Optuna's MedianPruner, which compares with completed trials only, running points count too: a
// sweep on a cluster runs its points at once.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tool/submit/point_stopper.h"

namespace gkebuild::submit {

class MedianStopping : public PointStopper {
 public:
  explicit MedianStopping(project::EarlyStopping rule) : rule_(std::move(rule)) {}

  std::vector<std::pair<std::string, std::string>> observe(const std::string& job,
                                                           const nlohmann::json& result) override;
  void ended(const std::string& job) override { ended_.insert(job); }

 private:
  std::optional<std::string> judge(const std::string& job, double step) const;
  bool better(double a, double b) const { return rule_.objective.minimize ? a < b : a > b; }

  project::EarlyStopping rule_;
  std::map<std::string, std::map<double, double>> values_;  // job -> step -> value
  std::set<std::string> ended_;
};

}  // namespace gkebuild::submit
