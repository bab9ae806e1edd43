#include "submit/sweep_overrides.h"

#include <algorithm>

#include "base/source_error.h"
#include "yamlfile/to_json.h"

namespace gkebuild::submit {
namespace {

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find(separator, start)) != std::string::npos; start = end + 1)
    parts.push_back(text.substr(start, end - start));
  parts.push_back(text.substr(start));
  return parts;
}

project::SweepAxis parse_axis(const std::string& option) {
  const auto equals = option.find('=');
  const SourceLocation where{"--sweep " + option};
  if (equals == std::string::npos || equals == 0 || equals + 1 == option.size())
    throw SourceError(where, "expected NAME=VALUE,VALUE…, e.g. --sweep n=4096,8192");
  project::SweepAxis axis;
  axis.name = option.substr(0, equals);
  for (const auto& text : split(option.substr(equals + 1), ',')) {
    if (text.empty()) throw SourceError(where, "an empty value in the list");
    axis.values.push_back(yamlfile::scalar_to_json(text));
  }
  return axis;
}

}  // namespace

void apply_sweep_overrides(project::Experiment& experiment, const std::vector<std::string>& sweeps) {
  for (const auto& option : sweeps) {
    auto axis = parse_axis(option);
    auto existing = std::find_if(experiment.sweep.begin(), experiment.sweep.end(),
                                 [&](const project::SweepAxis& a) { return a.name == axis.name; });
    if (existing != experiment.sweep.end())
      *existing = std::move(axis);
    else
      experiment.sweep.push_back(std::move(axis));
  }
}

}  // namespace gkebuild::submit
