// The template contexts of the shipped templates (documented at the top of each template).
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "tool/core/catalog/catalog.h"
#include "tool/core/project/project.h"
#include "tool/steps/render/options.h"

namespace gkebuild::render {

// The stand-in "accelerator" of a CPU-only experiment's Jobs (label and short name "cpu"): what
// names their files and labels; the templates ask cpu_only, not it, to leave out GPU fields.
const catalog::Accelerator& cpu_only_accelerator();

// What is common to one run of one experiment on one accelerator.
struct RunUnit {
  const project::Project* project;
  const project::Experiment* experiment;
  const catalog::Accelerator* accelerator;
  std::string run_id;
  std::string image;                      // reference
  const nlohmann::ordered_json* values;   // --values / --set
  std::string queue;                      // the Kueue LocalQueue its Jobs go to, or empty
  // The image's own PATH and LD_LIBRARY_PATH (its config's Env), which the container's env
  // keeps: the NVIDIA driver's folders are appended to them, never substituted.
  std::string image_path;
  std::string image_library_path;
};

// The image's PATH and LD_LIBRARY_PATH from its config's Env ("NAME=value"); when the config
// is not known (a render before the image is built), what the shipped Dockerfile.j2 sets,
// without the NVIDIA folders: the Docker default PATH after /opt/gkebuild/bin.
struct ImagePaths {
  std::string path;
  std::string library_path;
};
ImagePaths image_paths(const std::vector<std::string>* config_env);

// `own` (a PATH-like list) with `folder` appended unless it is in it already.
std::string with_folder_appended(const std::string& own, const std::string& folder);

// The Secret that holds a run's secretEnv values: one per run, named after the project and run.
std::string run_secret_name(const std::string& project, const std::string& run_id);

// Variables the experiment's args and env values are rendered with: the sweep point's
// variables, seed, values, experiment, accelerator (label), project and run_id.
nlohmann::ordered_json args_context(const RunUnit& unit, const nlohmann::ordered_json& point,
                                    const nlohmann::ordered_json& seed);

// job.yaml.j2 / pod.yaml.j2, in two parts. What every Job (or Pod) of `unit` shares, built
// once for them all (a 1,000-point sweep spent a tenth of its time building and freeing
// copies of it): namespace, project, experiment, run_id, job, indexed, seeded, points, spot,
// compute_class (the experiment's own with a fallback by ComputeClass), fallback (null with
// cluster.failover: follow), pending_timeout_seconds (with a fallback), accelerator, image, gpus,
// cpu, memory, storage, values, queue, secret_env
// ({name, secret, key} per secretEnv variable) and secret_refs (Secret names). `seeds` > 0
// makes Indexed Jobs of that many completions.
nlohmann::ordered_json workload_shared_context(const RunUnit& unit, int seeds);
// What is one sweep point's own: name, labels, point, command, args and env (`args` and
// `env` already rendered), and path and library_path: the PATH and LD_LIBRARY_PATH of the
// container (the experiment's own if it sets them, else the image's) with the NVIDIA
// driver's folders appended; `env` then holds neither.
nlohmann::ordered_json workload_point_context(const RunUnit& unit, const std::string& name, int point_index,
                                              const nlohmann::ordered_json& point,
                                              const std::vector<std::string>& command,
                                              const std::vector<std::string>& args, const project::EnvList& env);
// Both parts in one object (the point's members first).
nlohmann::ordered_json workload_context(const RunUnit& unit, const std::string& name, int point_index,
                                        const nlohmann::ordered_json& point, int seeds,
                                        const std::vector<std::string>& command,
                                        const std::vector<std::string>& args,
                                        const project::EnvList& env);
// `own`'s members, then `shared`'s (their keys are distinct).
nlohmann::ordered_json merged_context(nlohmann::ordered_json own, const nlohmann::ordered_json& shared);

// A multi-node Job's rendezvous (experiment nodes > 1), else null: {service, master_addr,
// master_port ("" when the experiment's env sets MASTER_PORT), nodes}. The Job named
// `job_name` has a headless Service of the same name, so pod i is <job>-i.<job>; with
// `jobset`, the JobSet `job_name`'s one replicated Job kJobSetNodes has pods
// <jobset>-nodes-0-i in the subdomain the JobSet controller makes, <jobset>.
nlohmann::ordered_json multi_node_json(const std::string& job_name, const project::Experiment& experiment,
                                       bool jobset);
inline constexpr const char* kJobSetNodes = "nodes";

// A specific reservation as the nodes carry it: {name, project (the owner of a shared one, or "")}; null for "".
nlohmann::ordered_json reservation_json(const std::string& reservation);

nlohmann::ordered_json namespace_context(const project::Project& project, const nlohmann::ordered_json& values);
// An Indexed sweep (an experiment's parallelism:): index i of the Job runs sweep point i, whose
// args it reads from kPointsDir/i, a key of the ConfigMap `config_map` mounted there
// (one argument per line; gkebuild workloads take them with --args-from FILE).
inline constexpr const char* kPointsDir = "/etc/gkebuild/points";
// points.yaml.j2: the ConfigMap of an Indexed sweep; `data` maps "0", "1"… to each point's args.
nlohmann::ordered_json points_context(const RunUnit& unit, const std::string& name, nlohmann::ordered_json data);
// Turns a workload_context into the Indexed Job of `points` sweep points.
void make_indexed_sweep(nlohmann::ordered_json& context, int points, int parallelism, const std::string& config_map);
// kueue.yaml.j2: the project's `kueue:` section (which must be there).
nlohmann::ordered_json kueue_context(const project::Project& project, const nlohmann::ordered_json& values);
nlohmann::ordered_json driver_context(const project::Project& project, const nlohmann::ordered_json& values);
nlohmann::ordered_json storage_context(const project::Project& project, const RenderOptions& options);
nlohmann::ordered_json dockerfile_context(const project::Project& project, const project::Image& image,
                                          const std::string& reference, const nlohmann::ordered_json& values);

// The PersistentVolumeClaim experiments mount, and the PersistentVolume behind it.
inline constexpr const char* kStorageClaim = "nfs";
std::string storage_volume_name(const project::Project& project);

}  // namespace gkebuild::render
