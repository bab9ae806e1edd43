#include "tool/submit/point_stopper.h"

#include <cstdio>

#include "tool/submit/early_stopping.h"
#include "tool/submit/successive_halving.h"

namespace gkebuild::submit {
namespace {

std::optional<double> step_of(const nlohmann::json& result) {
  for (const auto* object : {&result, result.contains("extra") ? &result["extra"] : nullptr}) {
    if (!object || !object->is_object()) continue;
    for (const char* name : {"step", "epoch"})
      if (auto found = object->find(name); found != object->end() && found->is_number()) return found->get<double>();
  }
  return std::nullopt;
}

}  // namespace

std::optional<HalvingRule> halving_rule(const project::Experiment& experiment) {
  if (!experiment.search || experiment.search->algorithm != project::SearchAlgorithm::Halving ||
      !experiment.search->objective)
    return std::nullopt;
  return HalvingRule{*experiment.search->objective, experiment.search->halving};
}

std::shared_ptr<PointStopper> point_stopper(const std::optional<project::EarlyStopping>& median,
                                            const std::optional<HalvingRule>& halving) {
  if (median) return std::make_shared<MedianStopping>(*median);
  if (halving) return std::make_shared<SuccessiveHalving>(*halving);
  return nullptr;
}

std::optional<std::pair<double, double>> step_and_value(const nlohmann::json& result, const std::string& metric) {
  if (!result.is_object() || result.value("metric", "") != metric) return std::nullopt;
  const auto value = result.find("value");
  const auto step = step_of(result);
  if (value == result.end() || !value->is_number() || !step) return std::nullopt;
  return std::make_pair(*step, value->get<double>());
}

std::string reason_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

}  // namespace gkebuild::submit
