#include "tool/submit/sweep_overrides.h"

#include <algorithm>

#include "base/error.h"
#include "base/printable.h"
#include "tool/core/yamlfile/to_json.h"

namespace gkebuild::submit {
namespace {

project::SweepAxis typed_axis(const SweepOverride& sweep) {
  if (sweep.values.empty()) throw Error(ErrorKind::kBadInput, "sweep axis " + in_quotes(sweep.name) + " has no values");
  project::SweepAxis axis;
  axis.name = sweep.name;
  std::string flag = "--sweep " + sweep.name + "=";
  for (const auto& text : sweep.values) flag += (flag.back() == '=' ? "" : ",") + text;
  axis.where = {printable(flag)};
  for (const auto& text : sweep.values) {
    if (text.empty()) throw Error(ErrorKind::kBadInput, "sweep axis " + in_quotes(sweep.name) + " has an empty value");
    axis.values.push_back(yamlfile::scalar_to_json(text));
  }
  return axis;
}

}  // namespace

void apply_sweep_overrides(project::Experiment& experiment, const std::vector<SweepOverride>& sweeps) {
  for (const auto& sweep : sweeps) {
    auto axis = typed_axis(sweep);
    // A search variable given on the command line is fixed to those values: a grid axis instead.
    if (experiment.search) {
      std::erase_if(experiment.search->variables, [&](const project::SearchVariable& v) { return v.name == axis.name; });
      if (experiment.search->variables.empty()) experiment.search.reset();  // its trials would all be the same
    }
    auto existing = std::find_if(experiment.sweep.begin(), experiment.sweep.end(),
                                 [&](const project::SweepAxis& a) { return a.name == axis.name; });
    if (existing != experiment.sweep.end())
      *existing = std::move(axis);
    else
      experiment.sweep.push_back(std::move(axis));
  }
}

}  // namespace gkebuild::submit
