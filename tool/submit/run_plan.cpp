#include "tool/submit/run_plan.h"

#include <algorithm>

#include "base/printable.h"
#include "base/source_error.h"
#include "base/suggest.h"
#include "tool/core/catalog/catalog.h"
#include "tool/steps/render/render.h"
#include "tool/steps/render/values.h"
#include "tool/steps/render/values_yaml.h"
#include "tool/submit/cluster.h"
#include "tool/submit/sweep_overrides.h"

namespace gkebuild::submit {
namespace {

using nlohmann::json;

// "; its experiments are a, b" (or "; it has no experiments: add one under experiments:").
std::string experiment_list(const project::Project& project) {
  const auto names = project.experiment_names();
  if (names.empty()) return "; it has no experiments: add one under experiments:";
  std::string list;
  for (const auto& name : names) list += (list.empty() ? "" : ", ") + printable(name);
  return "; its experiments are " + list;
}

const project::Experiment& find_experiment(const project::Project& project, const std::string& name) {
  const auto* experiment = project.find_experiment(name);
  if (experiment == nullptr)
    throw SourceError({project.file.string()}, "no experiment " + in_quotes(name) + " in this project" +
                                                   did_you_mean(name, project.experiment_names()) +
                                                   experiment_list(project));
  return *experiment;
}

// A rendered manifest as an object, read through libyaml's event API (the values reader):
// yaml-cpp's tree and scanner took a fifth of a 10,000-Job submit.
json object_of(const std::string& text, const std::string& file) {
  return json(jinja::to_json(render::parse_yaml_values(text, file)));
}

std::string machine_type(const catalog::Accelerator& accelerator, int gpus) {
  for (const auto& type : accelerator.machine_types)
    if (type.gpus >= gpus) return type.name;
  return "";
}

PlannedJob planned_job(PlannedObject manifest, const project::Experiment& experiment) {
  PlannedJob job;
  const json& object = manifest.object;
  const json metadata = object.value("metadata", json::object());
  job.name = metadata.value("name", "");
  job.accelerator = metadata.value("labels", json::object()).value("gkebuild.io/accelerator", "");
  job.gpus = experiment.gpus;
  job.spot = experiment.spot;
  job.provisioning = project::to_string(experiment.provisioning);
  job.nodes = experiment.nodes;
  if (const auto* accelerator = catalog::Catalog::builtin().find(job.accelerator))
    job.machine_type = machine_type(*accelerator, job.gpus);
  if (experiment.cpu_only()) {  // its Jobs' "cpu" label names no accelerator
    job.accelerator.clear();
    job.machine_type = experiment.machine_type;
  }
  const std::string point = metadata.value("annotations", json::object()).value("gkebuild.io/point", "{}");
  job.parameters = json::parse(point, nullptr, false);
  if (job.parameters.is_discarded()) job.parameters = json::object();
  job.completions = object.value("spec", json::object()).value("completions", 1);
  job.manifest = std::move(manifest);
  return job;
}

[[noreturn]] void refuse_jobsets(const project::Project& project, const project::Experiment& experiment) {
  throw SourceError({project.file.string()},
                    "cluster.jobset: submit creates and follows Indexed Jobs; render the JobSets with "
                    "`gkebuild render experiment/" + experiment.name + "` and apply them with kubectl, or drop "
                    "cluster.jobset");
}

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
  if (const auto* accelerator = catalog::Catalog::builtin().find(alternative.accelerator))
    planned.machine_type = machine_type(*accelerator, alternative.gpus);
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

// Renders the experiment's Jobs once per alternative of its fallback: list under the names of
// its own Jobs (cluster.failover: follow), in the list's order.
void plan_alternatives(const project::Project& project, const project::Experiment& experiment,
                       const render::RenderOptions& options, bool objects, RunPlan& plan) {
  if (options.accelerators.size() > 1)
    throw SourceError({"<command line>"}, "--accelerator: experiment '" + experiment.name +
                                              "' has a fallback: list that the follower carries out "
                                              "(cluster.failover: follow); give one accelerator");
  // What the project file refuses beside a followed fallback: (fallback_parse.cpp), on the command line.
  if (!options.queue.empty())
    throw SourceError({"<command line>"}, "--queue: experiment '" + experiment.name + "' has a fallback: list that the "
                                              "follower carries out, and a Job Kueue holds waits for quota, which the "
                                              "follower cannot tell from waiting for nodes; drop --queue");
  for (const auto& alternative : experiment.fallback)
    if (experiment.parallelism > 0 && alternative.nodes > 1)
      throw SourceError({"<command line>"}, "--parallelism: the fallback alternative " + describe(alternative) +
                                                " of experiment '" + experiment.name + "' is multi-node, whose "
                                                "completion index is the node rank; drop --parallelism");
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

}  // namespace

std::vector<std::string> images_of(const project::Project& project, const std::string& experiment) {
  return {find_experiment(project, experiment).image};
}

RunPlan plan_run(const project::Project& original, const PlanRequest& request) {
  project::Project project = original;
  const std::string name = find_experiment(project, request.experiment).name;
  auto& experiment = *std::find_if(project.experiments.begin(), project.experiments.end(),
                                   [&](const project::Experiment& e) { return e.name == name; });
  apply_sweep_overrides(experiment, request.sweeps);
  if (request.parallelism > 0) {
    if (experiment.seeds > 0)
      throw SourceError({"<command line>"}, "--parallelism: experiment '" + experiment.name +
                                                "' has seeds: (an Indexed Job per sweep point); give one or the other");
    experiment.parallelism = request.parallelism;
  }
  render::RenderOptions options;
  options.targets = {"experiment/" + experiment.name};
  options.accelerators = request.accelerators;
  options.queue = request.queue;
  options.indexed_sweeps = request.indexed_sweeps;
  options.run_id = request.run_id;
  options.values =
      jinja::to_json(render::load_values({request.values_files.begin(), request.values_files.end()}, request.sets));
  options.image_references = request.image_references;
  options.image_env = request.image_env;
  options.checked_sets = request.sets;
  RunPlan plan;
  plan.experiment = experiment.name;
  plan.namespace_name = project.cluster.namespace_name;
  if (project.cluster.gke) plan.region = project.cluster.gke->region();
  plan.run_id = request.run_id;
  plan.queue = request.queue.empty() ? experiment.queue : request.queue;
  if (const auto* image = project.find_image(experiment.image))
    plan.images[image->name] = render::image_reference(project, *image, options);
  for (auto& file : render::render_project(project, options)) {
    if (file.kind != render::OutputKind::Manifest) continue;
    json converted = request.objects ? object_of(file.text, file.file_name) : json();
    PlannedObject object{file.file_name, std::move(file.text), std::move(converted)};
    if (file.object_kind == "JobSet") refuse_jobsets(project, experiment);
    if (file.object_kind == "Job")
      plan.jobs.push_back(request.objects ? planned_job(std::move(object), experiment)
                                          : PlannedJob{std::move(object), file.object_name});
    else
      plan.support.push_back(std::move(object));
  }
  if (project::follows_fallback(project, experiment))
    plan_alternatives(project, experiment, options, request.objects, plan);
  return plan;
}

std::size_t check_plan(const project::Project& project, PlanRequest request) {
  request.run_id = cluster_run_id(request.experiment + "-00000000-000000");
  request.objects = false;
  return plan_run(project, request).jobs.size();
}

// Each alternative's Job follows its Job's document as YAML comments ("# fallback 1 of 2 for
// JOB: nvidia-a100-80gb x8 on-demand", then the Job, each line behind "# "): they show what the
// follower would create in the Job's place, and `kubectl apply -f` of the stream leaves them alone.
std::string manifest_stream(const RunPlan& plan) {
  std::string out;
  auto add = [&out](const PlannedObject& object) {
    if (!out.empty()) out += "---\n";
    out += object.text;
  };
  for (const auto& object : plan.support) add(object);
  for (const auto& job : plan.jobs) {
    add(job.manifest);
    for (std::size_t i = 0; i < job.alternatives.size(); ++i) {
      const auto& alternative = job.alternatives[i];
      out += "# fallback " + std::to_string(i + 1) + " of " + std::to_string(job.alternatives.size()) + " for " +
             job.name + ": " + alternative.describe + "\n";
      std::size_t start = 0;
      const std::string& text = alternative.manifest.text;
      while (start < text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        out += (end == start ? "#" : "# ") + text.substr(start, end - start) + "\n";
        start = end + 1;
      }
    }
  }
  return out;
}

std::string run_selector(const std::string& run_id) { return "gkebuild.io/run=" + run_id; }

}  // namespace gkebuild::submit
