#include "tool/steps/plan/alternatives.h"

#include <algorithm>

#include "base/source_error.h"
#include "tool/core/catalog/catalog.h"
#include "tool/core/jinja/values/value.h"
#include "tool/steps/render/render.h"
#include "tool/steps/render/values_yaml.h"

namespace gkebuild::plan {
namespace {

using nlohmann::json;

// "nvidia-a100-80gb x8 on-demand", "nvidia-h100-80gb x8 reservation r1 on 2 nodes".
std::string describe(const project::Alternative& alternative) {
  return alternative.accelerator + " x" + std::to_string(alternative.gpus) + " " +
         (alternative.reservation.empty() ? project::to_string(alternative.provisioning)
                                          : "reservation " + alternative.reservation) +
         (alternative.nodes > 1 ? " on " + std::to_string(alternative.nodes) + " nodes" : "");
}

// The project with `experiment` running on `alternative` instead of its own choice: the Jobs it
// renders are the ones the follower creates in their place.
project::Project with_alternative(const project::Project& project, const std::string& experiment,
                                  const project::Alternative& alternative) {
  project::Project variant = project;
  for (auto& own : variant.experiments) {
    if (own.name != experiment) continue;
    own.accelerators = {alternative.accelerator};
    own.gpus = alternative.gpus;
    own.nodes = alternative.nodes;
    own.provisioning = alternative.provisioning;
    own.spot = alternative.provisioning == project::Provisioning::Spot;
    own.reservation = alternative.reservation;
    own.reservation_zone = alternative.reservation_zone;
  }
  return variant;
}

PlannedAlternative planned_alternative(PlannedObject manifest, const project::Alternative& alternative) {
  PlannedAlternative planned;
  planned.accelerator = alternative.accelerator;
  planned.gpus = alternative.gpus;
  planned.machine_type = machine_type_for(alternative.accelerator, alternative.gpus);
  planned.spot = alternative.provisioning == project::Provisioning::Spot;
  planned.provisioning = project::to_string(alternative.provisioning);
  planned.nodes = alternative.nodes;
  if (manifest.object.is_object()) planned.completions = manifest.object.value("spec", json::object()).value("completions", 1);
  planned.describe = describe(alternative);
  planned.manifest = std::move(manifest);
  return planned;
}

// The `data` of a ConfigMap of sweep points (an Indexed sweep's args), which the follower does
// not recreate: an alternative's Job reads the one applied with the experiment's own Jobs.
json points_of(const PlannedObject& object) { return object_of(object.text, object.file_name).value("data", json()); }

// An alternative's objects besides its Jobs: the headless Service of a multi-node alternative
// selects the pods by job-name, which the alternative keeps, so one Service serves whichever Job
// runs (it is added when the experiment's own Jobs are single-node); a ConfigMap of points must
// be the one already planned.
void add_alternative_support(PlannedObject object, const project::Experiment& experiment, RunPlan& plan) {
  const auto same = std::find_if(plan.support.begin(), plan.support.end(),
                                 [&](const PlannedObject& planned) { return planned.file_name == object.file_name; });
  if (same == plan.support.end()) {
    plan.support.push_back(std::move(object));
    return;
  }
  if (object.file_name.starts_with("configmap-") && points_of(*same) != points_of(object))
    throw SourceError(experiment.fallback_where,
                      "fallback: the args of this Indexed sweep (parallelism:) differ on an alternative (they use "
                      "{{ accelerator }}?), but the follower recreates only the Job, which reads the points of the "
                      "experiment's own ConfigMap; keep the args the same or drop parallelism:");
}

// What the project file refuses beside a followed fallback: (fallback_parse.cpp), on the command line.
void refuse_overrides(const project::Experiment& experiment, const render::RenderOptions& options) {
  if (options.accelerators.size() > 1)
    throw SourceError({"<command line>"}, "--accelerator: experiment '" + experiment.name +
                                              "' has a fallback: list that the follower carries out "
                                              "(cluster.failover: follow); give one accelerator");
  if (!options.queue.empty())
    throw SourceError({"<command line>"}, "--queue: experiment '" + experiment.name + "' has a fallback: list that the "
                                              "follower carries out, and a Job Kueue holds waits for quota, which the "
                                              "follower cannot tell from waiting for nodes; drop --queue");
  for (const auto& alternative : experiment.fallback)
    if (experiment.parallelism > 0 && alternative.nodes > 1)
      throw SourceError({"<command line>"}, "--parallelism: the fallback alternative " + describe(alternative) +
                                                " of experiment '" + experiment.name + "' is multi-node, whose "
                                                "completion index is the node rank; drop --parallelism");
}

}  // namespace

json object_of(const std::string& text, const std::string& file) {
  // yaml-cpp's tree and scanner took a fifth of a 10,000-Job submit.
  return json(jinja::to_json(render::parse_yaml_values(text, file)));
}

std::string machine_type_for(const std::string& accelerator, int gpus) {
  if (const auto* found = catalog::Catalog::builtin().find(accelerator))
    for (const auto& type : found->machine_types)
      if (type.gpus >= gpus) return type.name;
  return "";
}

[[noreturn]] void refuse_jobsets(const project::Project& project, const project::Experiment& experiment) {
  throw SourceError({project.file.string()},
                    "cluster.jobset: submit creates and follows Indexed Jobs; render the JobSets with "
                    "`gkebuild render experiment/" + experiment.name + "` and apply them with kubectl, or drop "
                    "cluster.jobset");
}

void plan_alternatives(const project::Project& project, const project::Experiment& experiment,
                       const render::RenderOptions& options, bool objects, RunPlan& plan) {
  refuse_overrides(experiment, options);
  render::RenderOptions variant_options = options;
  variant_options.accelerators.clear();
  variant_options.name_accelerator =
      options.accelerators.empty() ? experiment.accelerators.front() : options.accelerators.front();
  for (const auto& alternative : experiment.fallback) {
    std::size_t next = 0;
    const project::Project variant = with_alternative(project, experiment.name, alternative);
    for (auto& file : render::render_project(variant, variant_options)) {
      if (file.kind != render::OutputKind::Manifest) continue;
      json converted = objects ? object_of(file.text, file.file_name) : json();
      PlannedObject object{file.file_name, std::move(file.text), std::move(converted)};
      if (file.object_kind == "JobSet") refuse_jobsets(project, experiment);
      if (file.object_kind != "Job") {
        add_alternative_support(std::move(object), experiment, plan);
        continue;
      }
      // Same points in the same order: the alternative's Job i is the experiment's Job i.
      if (next >= plan.jobs.size() || plan.jobs[next].name != file.object_name)
        throw SourceError(experiment.fallback_where, "fallback: the Job " + file.object_name + " for " +
                                                         describe(alternative) + " has no Job of the same name among "
                                                         "the experiment's own, which the follower would replace");
      plan.jobs[next++].alternatives.push_back(planned_alternative(std::move(object), alternative));
    }
  }
}

}  // namespace gkebuild::plan
