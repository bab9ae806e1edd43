// Asynchronous successive halving (ASHA, Li et al., 2020) in its stopping form, as Optuna's
// SuccessiveHalvingPruner: every point starts; rung k is at step minResource *
// reductionFactor^(minEarlyStoppingRate + k). When a point first reports a step at or past a rung,
// its value there joins the rung's, and the point goes on only if the value is within the top
// 1/reductionFactor of the values of all points that reached the rung so far (the best of them
// while fewer than reductionFactor have); otherwise it is stopped there. Points are not paused and
// resumed from a checkpoint: promotion is "keep running", so the order in which points reach a
// rung decides, as in ASHA. No rung lies at or past maxResource (when given).
#pragma once

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tool/submit/point_stopper.h"

namespace gkebuild::submit {

class SuccessiveHalving : public PointStopper {
 public:
  explicit SuccessiveHalving(HalvingRule rule) : rule_(std::move(rule)) {}

  // Only `job` itself can be stopped by its line: points judged at a rung earlier are not judged again.
  std::vector<std::pair<std::string, std::string>> observe(const std::string& job,
                                                           const nlohmann::json& result) override;
  void ended(const std::string& job) override { ended_.insert(job); }

  // The step of rung `rung`; 0 past maxResource (no such rung).
  double rung_step(int rung) const;

 private:
  bool promotable(double value, std::vector<double> rung_values) const;

  HalvingRule rule_;
  std::map<std::string, int> next_rung_;                 // job -> the first rung it has not reached
  std::map<int, std::map<std::string, double>> rungs_;  // rung -> job -> its value there
  std::set<std::string> ended_;
};

}  // namespace gkebuild::submit
