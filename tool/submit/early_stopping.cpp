#include "tool/submit/early_stopping.h"

#include <algorithm>

namespace gkebuild::submit {
namespace {

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> MedianStopping::observe(const std::string& job,
                                                                         const nlohmann::json& result) {
  const auto line = step_and_value(result, rule_.objective.metric);
  if (!line) return {};
  const auto [step, value] = *line;
  values_[job][step] = value;
  std::vector<std::pair<std::string, std::string>> stop;
  for (const auto& [other, steps] : values_)
    if (!ended_.count(other) && steps.count(step))
      if (auto why = judge(other, step)) stop.emplace_back(other, *why);
  for (const auto& [name, why] : stop) ended_.insert(name);
  return stop;
}

std::optional<std::string> MedianStopping::judge(const std::string& job, double step) const {
  if (step < rule_.warmup) return std::nullopt;
  std::vector<double> others;
  for (const auto& [other, steps] : values_)
    if (other != job)
      if (auto at = steps.find(step); at != steps.end()) others.push_back(at->second);
  if (others.size() < static_cast<std::size_t>(rule_.min_points)) return std::nullopt;
  const auto& mine = values_.at(job);
  std::optional<double> best;
  for (auto it = mine.begin(); it != mine.end() && it->first <= step; ++it)
    if (!best || better(it->second, *best)) best = it->second;
  const double middle = median(others);
  if (!best || !better(middle, *best)) return std::nullopt;
  return "early stopping (median): best " + rule_.objective.metric + " " + reason_number(*best) + " up to step " + reason_number(step) +
         " is worse than the median " + reason_number(middle) + " of " + std::to_string(others.size()) +
         " other points at that step";
}

}  // namespace gkebuild::submit
