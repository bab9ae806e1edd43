#include "tool/steps/render/sweep.h"

#include "tool/core/search/ranges.h"

namespace gkebuild::render {
namespace {

nlohmann::ordered_json variable_value(const project::SearchVariable& variable, double u) {
  if (!variable.choices.empty()) return variable.choices[search::uniform_choice(u, variable.choices.size())];
  if (variable.integer)
    return search::uniform_integer(u, static_cast<long long>(variable.min), static_cast<long long>(variable.max));
  return variable.log ? search::log_uniform(u, variable.min, variable.max)
                      : search::uniform_real(u, variable.min, variable.max);
}

}  // namespace

std::vector<nlohmann::ordered_json> sweep_points(const std::vector<project::SweepAxis>& axes) {
  std::vector<nlohmann::ordered_json> points{nlohmann::ordered_json::object()};
  for (const auto& axis : axes) {
    std::vector<nlohmann::ordered_json> next;
    next.reserve(points.size() * axis.values.size());
    for (const auto& point : points)
      for (const auto& value : axis.values) {
        auto extended = point;
        extended[axis.name] = value;
        next.push_back(std::move(extended));
      }
    points = std::move(next);
  }
  return points;
}

std::vector<nlohmann::ordered_json> search_points(const project::Search& search) {
  const auto sampler =
      search.algorithm == project::SearchAlgorithm::Sobol ? search::Sampler::Sobol : search::Sampler::Random;
  const auto units = search::unit_points(sampler, static_cast<int>(search.variables.size()),
                                         static_cast<std::size_t>(search.trials), search.seed);
  std::vector<nlohmann::ordered_json> points;
  points.reserve(units.size());
  for (const auto& unit : units) {
    nlohmann::ordered_json point = nlohmann::ordered_json::object();
    for (std::size_t i = 0; i < search.variables.size(); ++i)
      point[search.variables[i].name] = variable_value(search.variables[i], unit[i]);
    points.push_back(std::move(point));
  }
  return points;
}

std::vector<nlohmann::ordered_json> experiment_points(const project::Experiment& experiment) {
  auto grid = sweep_points(experiment.sweep);
  if (!experiment.search) return grid;
  const auto trials = search_points(*experiment.search);
  std::vector<nlohmann::ordered_json> points;
  points.reserve(grid.size() * trials.size());
  for (const auto& point : grid)
    for (const auto& trial : trials) {
      auto combined = point;
      for (const auto& [name, value] : trial.items()) combined[name] = value;
      points.push_back(std::move(combined));
    }
  return points;
}

}  // namespace gkebuild::render
