// What the command line changes of a project's experiments before they are planned: the one
// override mechanism of `gkebuild render` and `gkebuild submit` (and `cluster check`), so that
// both show the same Jobs for the same flags.
#pragma once

#include <string>
#include <vector>

#include "tool/core/project/project.h"
#include "tool/steps/render/options.h"
#include "tool/steps/render/values.h"

namespace gkebuild::plan {

// An axis NAME with its values as the user wrote them (typed as YAML scalars when applied):
// replaces the experiment's axis NAME, or adds it; one that names a search variable fixes it
// (the search samples the others).
struct SweepOverride {
  std::string name;
  std::vector<std::string> values;
};

// The flags of render and submit that change what is planned.
struct Overrides {
  std::vector<std::string> accelerators;  // empty: each experiment's own (--accelerator)
  std::string queue;                      // empty: each experiment's own Kueue queue, or none (--queue)
  int parallelism = 0;                    // > 0: sweeps as Indexed Jobs of this parallelism (--parallelism)
  std::vector<SweepOverride> sweeps;      // --sweep
  std::vector<render::Assignment> sets;   // {"a.b", "v"}: template values (--set)
  std::vector<std::string> values_files;  // YAML or JSON values files, merged in order before `sets` (--values)
};

// The project with `overrides` applied to the experiments `options.targets` select (their
// sweeps and parallelism), and `options` given the accelerators, queue and values. Throws
// SourceError (Error kBadInput for a malformed sweep axis) for what the command line gets wrong.
project::Project apply_overrides(const project::Project& project, const Overrides& overrides,
                                 render::RenderOptions& options);

// The sweep axes alone, on one experiment. Values are typed as YAML scalars (`4096` a number,
// `fp16` a string). An axis without values, or with an empty one, throws Error(kBadInput).
void apply_sweep_overrides(project::Experiment& experiment, const std::vector<SweepOverride>& sweeps);

}  // namespace gkebuild::plan
