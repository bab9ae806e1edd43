#include "tool/submit/successive_halving.h"

#include <algorithm>
#include <cmath>

namespace gkebuild::submit {

double SuccessiveHalving::rung_step(int rung) const {
  const auto& halving = rule_.halving;
  const double step =
      halving.min_resource * std::pow(halving.reduction_factor, halving.min_early_stopping_rate + rung);
  return halving.max_resource > 0 && step >= halving.max_resource ? 0 : step;
}

// Optuna's _is_trial_promotable_to_next_rung: `rung_values` holds the point's own value too.
bool SuccessiveHalving::promotable(double value, std::vector<double> rung_values) const {
  const std::size_t kept = rung_values.size() / static_cast<std::size_t>(rule_.halving.reduction_factor);
  const std::size_t index = kept == 0 ? 0 : kept - 1;  // fewer than eta there: only the best goes on
  std::sort(rung_values.begin(), rung_values.end());
  return rule_.objective.minimize ? value <= rung_values[index] : value >= rung_values[rung_values.size() - 1 - index];
}

std::vector<std::pair<std::string, std::string>> SuccessiveHalving::observe(const std::string& job,
                                                                            const nlohmann::json& result) {
  if (ended_.count(job)) return {};  // lines a stopped point printed before it went
  const auto line = step_and_value(result, rule_.objective.metric);
  if (!line) return {};
  const auto [step, value] = *line;
  int& rung = next_rung_[job];
  // A line past several rungs (a point that reports seldom) is judged at each, with its one value.
  for (double at = rung_step(rung); at > 0 && step >= at; at = rung_step(rung)) {
    auto& values = rungs_[rung];
    values[job] = value;
    std::vector<double> all;
    for (const auto& [name, there] : values) all.push_back(there);
    if (std::isnan(value) || !promotable(value, all)) {
      ended_.insert(job);
      const std::size_t kept = std::max<std::size_t>(1, all.size() / rule_.halving.reduction_factor);
      return {{job, "early stopping (halving): rung " + std::to_string(rung) + " (step " + reason_number(at) + ") reached; " +
                        rule_.objective.metric + " " + reason_number(value) + " there is not within the best " +
                        std::to_string(kept) + " of the " + std::to_string(all.size()) +
                        " points that reached it (1/" + std::to_string(rule_.halving.reduction_factor) + " go on)"}};
    }
    ++rung;
  }
  return {};
}

}  // namespace gkebuild::submit
