// What one submit sends: the experiment's Jobs and the long-lived objects they need
// (Namespace, driver installer, storage), rendered by tool/steps/render with the run's id and
// the pushed image references, each kept as the YAML text printed and the JSON sent.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

#include "tool/core/project/project.h"
#include "tool/steps/render/values.h"

namespace gkebuild::submit {

struct PlannedObject {
  std::string file_name;  // under manifests/
  std::string text;       // the YAML document, exactly as rendered
  nlohmann::json object;  // the same, as the API server gets it
};

// The same Job (same name) rendered for one alternative of the experiment's `fallback:` list, as
// the follower creates it in the Job's place (cluster.failover: follow).
struct PlannedAlternative {
  PlannedObject manifest;  // the Job as it would be created instead (same metadata.name)
  std::string accelerator;  // catalog label
  int gpus = 0;
  std::string machine_type;  // the smallest catalog machine type with `gpus` GPUs of this kind
  bool spot = false;
  std::string provisioning = "on-demand";  // the project file's word
  int nodes = 1;
  int completions = 1;
  std::string describe;  // "nvidia-a100-80gb x8 on-demand", "nvidia-h100-80gb x8 reservation r1 on 2 nodes"
};

struct PlannedJob {
  PlannedObject manifest;
  std::string name;
  std::string accelerator;  // catalog label; "" for a CPU-only experiment's Job (gpus 0)
  int gpus = 0;
  // The smallest catalog machine type with `gpus` GPUs of this kind; a CPU-only one's machineType.
  std::string machine_type;
  bool spot = false;
  std::string provisioning = "on-demand";  // the project file's word: what its GPUs cost
  nlohmann::json parameters = nlohmann::json::object();  // the sweep point
  int completions = 1;
  int nodes = 1;  // pods of the Job that run together, one per node (completions then equals it)
  // With cluster.failover: follow and a fallback: list, the Job for each alternative, in the
  // list's order; empty otherwise.
  std::vector<PlannedAlternative> alternatives;
};

// An axis NAME with its values as the user wrote them (typed as YAML scalars when
// applied): replaces the experiment's axis NAME, or adds it.
struct SweepOverride {
  std::string name;
  std::vector<std::string> values;
};

// What is planned: as a part of the submit options, the CLI fills the experiment and its flags
// (--accelerator, --queue, --parallelism, --sweep, --set, --values); the submit adds the run's
// id and image references.
struct PlanRequest {
  std::string experiment;
  std::vector<std::string> accelerators;  // empty: the experiment's own
  std::string queue;                      // empty: the experiment's own Kueue queue (or none)
  int parallelism = 0;                    // > 0: the sweep as Indexed Jobs of this parallelism (--parallelism)
  std::vector<SweepOverride> sweeps;
  std::vector<render::Assignment> sets;   // {"a.b", "v"}: template values
  std::vector<std::string> values_files;  // YAML or JSON values files, merged in order before `sets`
  std::string run_id;                     // the gkebuild.io/run label and the suffix of Job names
  std::map<std::string, std::string> image_references;  // image name -> reference
  std::map<std::string, std::vector<std::string>> image_env;  // image name -> its config's Env, when known
  bool objects = true;  // false: only check and render (PlannedObject::object stays null)
  bool indexed_sweeps = true;  // false: one Job per sweep point even with parallelism: (--local)
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

// The images `experiment` needs (its own image), for the build and push step.
std::vector<std::string> images_of(const project::Project& project, const std::string& experiment);

// The whole plan as one multi-document YAML stream, in the order it is sent.
std::string manifest_stream(const RunPlan& plan);

// The label selector of a run's objects.
std::string run_selector(const std::string& run_id);

}  // namespace gkebuild::submit
