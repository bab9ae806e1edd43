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
  plan.run_id = request.run_id;
  plan.queue = request.queue.empty() ? experiment.queue : request.queue;
  if (const auto* image = project.find_image(experiment.image))
    plan.images[image->name] = render::image_reference(project, *image, options);
  for (auto& file : render::render_project(project, options)) {
    if (file.kind != render::OutputKind::Manifest) continue;
    json converted = request.objects ? object_of(file.text, file.file_name) : json();
    PlannedObject object{file.file_name, std::move(file.text), std::move(converted)};
    if (file.object_kind == "JobSet")
      throw SourceError({project.file.string()},
                        "cluster.jobset: submit creates and follows Indexed Jobs; render the JobSets with "
                        "`gkebuild render experiment/" + experiment.name + "` and apply them with kubectl, or drop "
                        "cluster.jobset");
    if (file.object_kind == "Job")
      plan.jobs.push_back(request.objects ? planned_job(std::move(object), experiment)
                                          : PlannedJob{std::move(object), file.object_name});
    else
      plan.support.push_back(std::move(object));
  }
  return plan;
}

std::size_t check_plan(const project::Project& project, PlanRequest request) {
  request.run_id = cluster_run_id(request.experiment + "-00000000-000000");
  request.objects = false;
  return plan_run(project, request).jobs.size();
}

std::string manifest_stream(const RunPlan& plan) {
  std::string out;
  auto add = [&out](const PlannedObject& object) {
    if (!out.empty()) out += "---\n";
    out += object.text;
  };
  for (const auto& object : plan.support) add(object);
  for (const auto& job : plan.jobs) add(job.manifest);
  return out;
}

std::string run_selector(const std::string& run_id) { return "gkebuild.io/run=" + run_id; }

}  // namespace gkebuild::submit
