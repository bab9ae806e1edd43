// Values that nothing reads are refused before anything is rendered or built: a sweep axis
// no field of the experiment reads would run every Job again, identical, once per value
// (`--sweep learning_rate=…` for an experiment that reads `lr`), and a --set key no template
// reads is a misspelling that silently does nothing.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "tool/core/jinja/environment.h"
#include "tool/core/project/project.h"

namespace gkebuild::render {

// Each axis of the experiment's sweep must be read by its command, args or env (or, where the
// project has its own job.yaml.j2, pod.yaml.j2 or pod-spec.yaml.j2, by that template as
// point.NAME). Throws SourceError at the axis (its key in gkebuild.yaml, or its --sweep flag)
// naming the variables the experiment does read, and `seeds:` for repeated runs.
void check_sweep_axes(const project::Project& project, const project::Experiment& experiment,
                      jinja::Environment& environment);

// check_sweep_axes for every experiment of the project, with its templates, as render makes it
// before anything renders: what `gkebuild validate gkebuild.yaml` adds to the project loader's
// checks, so that a pre-commit hook catches a misspelt axis (`hiden:`) as render does.
void check_project_sweep_axes(const project::Project& project);

// Each key set with --set (its first part: `a` of a.b=1) must be read as values.KEY by the
// experiment's command, args or env or by a template its render uses (the Job, Pod and
// support manifests, the image's Dockerfile template). Throws SourceError naming the flag.
void check_set_keys(const project::Project& project, const project::Experiment& experiment,
                    jinja::Environment& environment, const std::vector<std::pair<std::string, std::string>>& sets);

}  // namespace gkebuild::render
