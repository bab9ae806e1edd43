// What one run of an experiment is, as data: its Jobs (each with its sweep point, accelerator,
// GPUs, machine type, provisioning and nodes) and the long-lived objects they need (Namespace,
// driver installer, storage), rendered by tool/steps/render with the run's id and image
// references after the command line's overrides, each kept as the YAML text printed and the
// JSON sent. Submit creates these Jobs; render prints the same ones.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

#include "tool/core/project/project.h"
#include "tool/steps/plan/overrides.h"
#include "tool/steps/render/options.h"
#include "tool/steps/render/render.h"

namespace gkebuild::plan {

struct PlannedObject {
  std::string file_name;  // under manifests/
  std::string text;       // the YAML document, exactly as rendered
  nlohmann::json object;  // the same, as the API server gets it
};

// Where a Job's pods run and what their GPUs cost: the Job's own choice, or an alternative's.
struct Placement {
  std::string accelerator;  // catalog label; "" for a CPU-only experiment's Job (gpus 0)
  int gpus = 0;
  // The smallest catalog machine type with `gpus` GPUs of this kind; a CPU-only one's machineType.
  std::string machine_type;
  bool spot = false;
  std::string provisioning = "on-demand";  // the project file's word: what its GPUs cost
  int nodes = 1;  // pods of the Job that run together, one per node (completions then equals it)
};

// The same Job (same name) rendered for one alternative of the experiment's `fallback:` list, as
// the follower creates it in the Job's place (cluster.failover: follow).
struct PlannedAlternative : Placement {
  PlannedObject manifest;  // the Job as it would be created instead (same metadata.name)
  int completions = 1;
  std::string describe;  // "nvidia-a100-80gb x8 on-demand", "nvidia-h100-80gb x8 reservation r1 on 2 nodes"
};

struct PlannedJob : Placement {
  PlannedObject manifest;
  std::string name;
  nlohmann::json parameters = nlohmann::json::object();  // the sweep point, as planned
  int completions = 1;
  // With cluster.failover: follow and a fallback: list, the Job for each alternative, in the
  // list's order; empty otherwise.
  std::vector<PlannedAlternative> alternatives;
};

// What is planned: the experiment and the command line's overrides, composed with the render
// options the run adds (its id in `render.run_id`, the pushed images in `render.image_references`
// and `render.image_env`, `render.indexed_sweeps` false for a local run: one Job per point). The
// targets, accelerators, queue and values of `render` are the plan's to set.
struct PlanRequest {
  std::string experiment;
  Overrides overrides;
  render::RenderOptions render;
  bool objects = true;  // false: only check and render (PlannedObject::object stays null)
};

struct RunPlan {
  std::string experiment;
  std::string namespace_name;
  std::string run_id;
  std::string queue;  // the Kueue LocalQueue its Jobs wait in, or empty (no Kueue)
  std::string region;  // the project file's cluster region (prices); "" when it names none
  std::map<std::string, std::string> images;  // the experiment's image -> the reference its Jobs use
  std::vector<PlannedObject> support;          // applied (server-side apply), in this order
  std::vector<PlannedJob> jobs;                // created
};

// Checks the experiment (with a "did you mean"), the accelerators and the sweeps, and
// renders. Every bad input is a SourceError; nothing is sent anywhere.
RunPlan plan_run(const project::Project& project, const PlanRequest& request);

// Renders once without converting objects, with a run id as long as a real one: every bad
// input of `request` is found before an image is built or a run folder made. Returns how many
// Jobs the run has.
std::size_t check_plan(const project::Project& project, PlanRequest request);

// The run id check_plan and the checks before a submit plan with: as long as a real one.
std::string stand_in_run_id(const std::string& experiment);

// The images `experiment` needs (its own image), for the build and push step.
std::vector<std::string> images_of(const project::Project& project, const std::string& experiment);

// The whole plan as one multi-document YAML stream, in the order it is sent.
std::string manifest_stream(const RunPlan& plan);

// Puts rendered files in the order a run applies them, as manifest_stream prints them: the
// objects the workloads need (Namespace, ConfigMaps of points, Services…) before the workloads
// (Jobs, JobSets, Pods), each in render order. `gkebuild render` prints its stream so.
void order_as_applied(std::vector<render::RenderedFile>& files);

}  // namespace gkebuild::plan
