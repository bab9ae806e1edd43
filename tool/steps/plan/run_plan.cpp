#include "tool/steps/plan/run_plan.h"

#include <algorithm>

#include "base/printable.h"
#include "base/source_error.h"
#include "base/suggest.h"
#include "tool/steps/plan/alternatives.h"
#include "tool/steps/plan/run_id.h"
#include "tool/steps/render/render.h"

namespace gkebuild::plan {
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

// A Job as planned: its accelerator and point from the render's data (never read back from the
// object's labels), the rest from the experiment the overrides made.
PlannedJob planned_job(PlannedObject manifest, const render::RenderedFile& file,
                       const project::Experiment& experiment) {
  PlannedJob job;
  job.name = file.object_name;
  job.gpus = experiment.gpus;
  job.spot = experiment.spot;
  job.provisioning = project::to_string(experiment.provisioning);
  job.nodes = experiment.nodes;
  if (experiment.cpu_only()) {  // its Jobs' "cpu" accelerator is no catalog entry
    job.machine_type = experiment.machine_type;
  } else if (file.workload) {
    job.accelerator = file.workload->accelerator;
    job.machine_type = machine_type_for(job.accelerator, job.gpus);
  }
  if (file.workload) job.parameters = json(file.workload->point);
  if (manifest.object.is_object()) job.completions = manifest.object.value("spec", json::object()).value("completions", 1);
  job.manifest = std::move(manifest);
  return job;
}

}  // namespace

std::vector<std::string> images_of(const project::Project& project, const std::string& experiment) {
  return {find_experiment(project, experiment).image};
}

RunPlan plan_run(const project::Project& original, const PlanRequest& request) {
  const std::string name = find_experiment(original, request.experiment).name;
  render::RenderOptions options = request.render;
  options.targets = {"experiment/" + name};
  // Submit refuses a --set key the experiment's render never reads (render leaves them unchecked).
  options.checked_sets = request.overrides.sets;
  const project::Project project = apply_overrides(original, request.overrides, options);
  const project::Experiment& experiment = *project.find_experiment(name);
  RunPlan plan;
  plan.experiment = experiment.name;
  plan.namespace_name = project.cluster.namespace_name;
  if (project.cluster.gke) plan.region = project.cluster.gke->region();
  plan.run_id = options.run_id;
  plan.queue = options.queue.empty() ? experiment.queue : options.queue;
  if (const auto* image = project.find_image(experiment.image))
    plan.images[image->name] = render::image_reference(project, *image, options);
  for (auto& file : render::render_project(project, options)) {
    if (file.kind != render::OutputKind::Manifest) continue;
    json converted = request.objects ? object_of(file.text, file.file_name) : json();
    PlannedObject object{file.file_name, std::move(file.text), std::move(converted)};
    if (file.object_kind == "JobSet") refuse_jobsets(project, experiment);
    if (file.object_kind == "Job")
      plan.jobs.push_back(planned_job(std::move(object), file, experiment));
    else
      plan.support.push_back(std::move(object));
  }
  if (project::follows_fallback(project, experiment))
    plan_alternatives(project, experiment, options, request.objects, plan);
  return plan;
}

std::string stand_in_run_id(const std::string& experiment) { return cluster_run_id(experiment + "-00000000-000000"); }

std::size_t check_plan(const project::Project& project, PlanRequest request) {
  request.render.run_id = stand_in_run_id(request.experiment);
  request.objects = false;
  return plan_run(project, request).jobs.size();
}

void order_as_applied(std::vector<render::RenderedFile>& files) {
  std::stable_partition(files.begin(), files.end(), [](const render::RenderedFile& file) { return !file.workload; });
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

}  // namespace gkebuild::plan
