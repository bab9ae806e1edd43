#include "tool/steps/plan/overrides.h"

#include <algorithm>

#include "base/error.h"
#include "base/printable.h"
#include "base/source_error.h"
#include "tool/core/jinja/values/value.h"
#include "tool/core/yamlfile/to_json.h"
#include "tool/steps/render/targets.h"

namespace gkebuild::plan {
namespace {

// Where the caller's flags are, in messages (this library does not parse them).
const SourceLocation kCommandLine{"<command line>"};

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

void apply_parallelism(project::Experiment& experiment, int parallelism) {
  if (parallelism <= 0) return;
  if (experiment.seeds > 0)
    throw SourceError(kCommandLine, "--parallelism: experiment '" + experiment.name +
                                        "' has seeds: (an Indexed Job per sweep point); give one or the other");
  experiment.parallelism = parallelism;
}

// The names of the experiments the targets select, as Jobs or as Pods.
std::vector<std::string> selected_experiments(const project::Project& project, const render::RenderOptions& options) {
  const render::Selection selection = render::select_targets(project, options.targets, options.all_dockerfiles);
  std::vector<std::string> names;
  for (const auto& experiments : {selection.jobs, selection.pods})
    for (const auto* experiment : experiments)
      if (std::find(names.begin(), names.end(), experiment->name) == names.end()) names.push_back(experiment->name);
  return names;
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

project::Project apply_overrides(const project::Project& project, const Overrides& overrides,
                                 render::RenderOptions& options) {
  project::Project overridden = project;
  if (!overrides.sweeps.empty() || overrides.parallelism > 0)
    for (const auto& name : selected_experiments(project, options))
      for (auto& experiment : overridden.experiments) {
        if (experiment.name != name) continue;
        apply_sweep_overrides(experiment, overrides.sweeps);
        apply_parallelism(experiment, overrides.parallelism);
      }
  options.accelerators = overrides.accelerators;
  options.queue = overrides.queue;
  options.values = jinja::to_json(
      render::load_values({overrides.values_files.begin(), overrides.values_files.end()}, overrides.sets));
  return overridden;
}

}  // namespace gkebuild::plan
