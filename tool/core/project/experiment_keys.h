// The keys an entry of `experiments:` may have: the one table of them. The parser accepts
// exactly these (an unknown key is an error at its line:col with a "did you mean" that says what
// the suggested key is), and docs/project-file.md's experiments table lists exactly these
// (scripts/check_docs.py compares the two). A new key is a row here, its reading in
// experiment_parse.cpp and its row in the docs.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "tool/core/yamlfile/document.h"

namespace gkebuild::project {

struct ExperimentKey {
  std::string_view name;
  std::string_view type;     // what the value is, as a message says it: "a boolean", "a duration"
  std::string_view meaning;  // one line; docs/project-file.md says the rest
};

// In the order docs/project-file.md lists them.
inline constexpr std::array kExperimentKeys{
    ExperimentKey{"image", "an image name", "the image of images: the Jobs run"},
    ExperimentKey{"command", "a list of strings", "replaces the image's entrypoint"},
    ExperimentKey{"args", "a list of strings", "the arguments, templates of the sweep variables"},
    ExperimentKey{"env", "a mapping", "environment variables, templates of the sweep variables"},
    ExperimentKey{"accelerators", "a list of accelerator labels", "the GPU types: one Job per accelerator and point"},
    ExperimentKey{"gpus", "an integer", "GPUs per pod (per node when nodes > 1)"},
    ExperimentKey{"machineType", "a machine type", "the VMs of a CPU-only experiment"},
    ExperimentKey{"cpu", "a quantity", "the pod's CPU request and limit"},
    ExperimentKey{"memory", "a quantity", "the pod's memory request and limit"},
    ExperimentKey{"spot", "a boolean", "Spot VMs (provisioning: spot)"},
    ExperimentKey{"provisioning", "on-demand, spot, flex-start or queued", "how the nodes are obtained"},
    ExperimentKey{"reservation", "a name or {name, zone}", "the reservation on-demand nodes consume"},
    ExperimentKey{"nodes", "an integer", "nodes per Job (a multi-node Job when more than 1)"},
    ExperimentKey{"compact", "a boolean", "compact placement of a multi-node Job's nodes"},
    ExperimentKey{"fallback", "a list of alternatives", "accelerators and provisioning to fall back to"},
    ExperimentKey{"pendingTimeout", "a duration", "how long a point waits for nodes before its next alternative"},
    ExperimentKey{"earlyStopping", "a mapping", "the median stopping rule"},
    ExperimentKey{"shmSize", "a quantity", "the size limit of /dev/shm"},
    ExperimentKey{"sweep", "a mapping of lists", "the axes of the grid of points"},
    ExperimentKey{"search", "a mapping", "sampled points: random, sobol or halving"},
    ExperimentKey{"budget", "{gpuHours, usd}", "the most a run may cost"},
    ExperimentKey{"seeds", "an integer", "an Indexed Job of this many seeds per point"},
    ExperimentKey{"parallelism", "an integer", "the sweep as one Indexed Job per accelerator"},
    ExperimentKey{"queue", "a LocalQueue name", "the Kueue queue the Jobs wait in"},
    ExperimentKey{"timeout", "a duration", "the Job's activeDeadlineSeconds"},
    ExperimentKey{"backoffLimit", "an integer", "the Job's retries"},
    ExperimentKey{"restarts", "an integer", "gang restarts of a multi-node Job"},
    ExperimentKey{"retriableExitCodes", "a list of exit codes", "a multi-node program's \"try again\""},
    ExperimentKey{"ttlAfterFinished", "a duration", "the Job's ttlSecondsAfterFinished"},
    ExperimentKey{"storage", "a boolean", "whether the Jobs mount the project's storage"},
    ExperimentKey{"secretEnv", "a list of variable names", "variables read from the submitter's environment"},
    ExperimentKey{"secretRefs", "a list of Secret names", "Secrets of the namespace, every key a variable"},
};

// The names of kExperimentKeys, for yamlfile::Fields.
std::vector<std::string> experiment_key_names();
const ExperimentKey* find_experiment_key(std::string_view name);

// Fails at the first key of the mapping `entry` (an experiment's value, named `what` in messages)
// that kExperimentKeys lacks: "unknown key 'spto' in experiment 'gemm' (did you mean 'spot'?
// spot is a boolean: Spot VMs …)".
void check_experiment_keys(const yamlfile::Document& doc, const YAML::Node& entry, const std::string& what);

}  // namespace gkebuild::project
