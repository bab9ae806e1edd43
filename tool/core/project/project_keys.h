// The keys of the project file, the top level's, an image's and an experiment's: one table each.
// The parser accepts exactly these (an unknown key is an error at its line:col with a "did you
// mean" that says what the suggested key is), and docs/project-file.md's tables under "## Top-level
// keys", "## images" and "## experiments" list exactly these (scripts/check_docs.py compares them).
// A new key is a row here, its reading in the parser and its row in the docs.
#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tool/core/yamlfile/document.h"

namespace gkebuild::project {

struct ProjectKey {
  std::string_view name;
  std::string_view type;     // what the value is, as a message says it: "a boolean", "a duration"
  std::string_view meaning;  // one line; docs/project-file.md says the rest
};

// Each in the order docs/project-file.md lists them.
inline constexpr std::array kTopLevelKeys{
    ProjectKey{"apiVersion", "gkebuild/v1", "the file's format"},
    ProjectKey{"project", "a DNS label", "the project's name"},
    ProjectKey{"registry", "a registry and repository", "where images are pushed"},
    ProjectKey{"cluster", "a mapping, or local", "how to reach the cluster, and the GKE cluster itself"},
    ProjectKey{"images", "a mapping", "the images by name"},
    ProjectKey{"experiments", "a mapping", "the experiments by name"},
    ProjectKey{"storage", "{nfs, gcs}", "shared storage the Jobs mount"},
    ProjectKey{"kueue", "a mapping", "the project's Kueue queue objects"},
};

inline constexpr std::array kImageKeys{
    ProjectKey{"from", "scratch, a reference or oci:DIR", "the base image"},
    ProjectKey{"workload", "a workload name", "the CMake target or shipped workload the image runs"},
    ProjectKey{"source", "a folder", "the CMake project that builds the workload"},
    ProjectKey{"cudaLibraries", "a list of library names", "CUDA toolkit libraries in a layer of their own"},
    ProjectKey{"dockerfile", "a file", "your Dockerfile (a .j2 one is a template)"},
    ProjectKey{"context", "a folder", "that Dockerfile's build context"},
    ProjectKey{"entrypoint", "a list of strings", "the image's entrypoint"},
    ProjectKey{"env", "a mapping", "the image config's environment"},
    ProjectKey{"labels", "a mapping", "the image config's labels"},
    ProjectKey{"secrets", "a list of {id, src or env}", "build secrets for RUN --mount=type=secret"},
};

inline constexpr std::array kExperimentKeys{
    ProjectKey{"image", "an image name", "the image of images: the Jobs run"},
    ProjectKey{"command", "a list of strings", "replaces the image's entrypoint"},
    ProjectKey{"args", "a list of strings", "the arguments, templates of the sweep variables"},
    ProjectKey{"env", "a mapping", "environment variables, templates of the sweep variables"},
    ProjectKey{"accelerators", "a list of accelerator labels", "the GPU types: one Job per accelerator and point"},
    ProjectKey{"gpus", "an integer", "GPUs per pod (per node when nodes > 1)"},
    ProjectKey{"machineType", "a machine type", "the VMs of a CPU-only experiment"},
    ProjectKey{"cpu", "a quantity", "the pod's CPU request and limit"},
    ProjectKey{"memory", "a quantity", "the pod's memory request and limit"},
    ProjectKey{"spot", "a boolean", "Spot VMs (provisioning: spot)"},
    ProjectKey{"provisioning", "on-demand, spot, flex-start or queued", "how the nodes are obtained"},
    ProjectKey{"reservation", "a name or {name, zone}", "the reservation on-demand nodes consume"},
    ProjectKey{"nodes", "an integer", "nodes per Job (a multi-node Job when more than 1)"},
    ProjectKey{"compact", "a boolean", "compact placement of a multi-node Job's nodes"},
    ProjectKey{"fallback", "a list of alternatives", "accelerators and provisioning to fall back to"},
    ProjectKey{"pendingTimeout", "a duration", "how long a point waits for nodes before its next alternative"},
    ProjectKey{"earlyStopping", "a mapping", "the median stopping rule"},
    ProjectKey{"shmSize", "a quantity", "the size limit of /dev/shm"},
    ProjectKey{"sweep", "a mapping of lists", "the axes of the grid of points"},
    ProjectKey{"search", "a mapping", "sampled points: random, sobol or halving"},
    ProjectKey{"budget", "{gpuHours, usd}", "the most a run may cost"},
    ProjectKey{"seeds", "an integer", "an Indexed Job of this many seeds per point"},
    ProjectKey{"parallelism", "an integer", "the sweep as one Indexed Job per accelerator"},
    ProjectKey{"queue", "a LocalQueue name", "the Kueue queue the Jobs wait in"},
    ProjectKey{"timeout", "a duration", "the Job's activeDeadlineSeconds"},
    ProjectKey{"backoffLimit", "an integer", "the Job's retries"},
    ProjectKey{"restarts", "an integer", "gang restarts of a multi-node Job"},
    ProjectKey{"retriableExitCodes", "a list of exit codes", "a multi-node program's \"try again\""},
    ProjectKey{"ttlAfterFinished", "a duration", "the Job's ttlSecondsAfterFinished"},
    ProjectKey{"storage", "a boolean", "whether the Jobs mount the project's storage"},
    ProjectKey{"secretEnv", "a list of variable names", "variables read from the submitter's environment"},
    ProjectKey{"secretRefs", "a list of Secret names", "Secrets of the namespace, every key a variable"},
};

using ProjectKeys = std::span<const ProjectKey>;

// The names of a table, for yamlfile::Fields.
std::vector<std::string> key_names(ProjectKeys keys);
const ProjectKey* find_key(ProjectKeys keys, std::string_view name);

// Fails at the first key of the mapping `node` (named `what` in messages) that `keys` lacks:
// "unknown key 'spto' in experiment 'gemm' (did you mean 'spot'?): spot is a boolean, Spot VMs …".
void check_keys(ProjectKeys keys, const yamlfile::Document& doc, const YAML::Node& node, const std::string& what);

}  // namespace gkebuild::project
