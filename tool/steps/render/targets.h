// Which parts of a project a render covers, from the TARGET arguments.
#pragma once

#include <string>
#include <vector>

#include "tool/core/project/project.h"

namespace gkebuild::render {

struct Selection {
  std::vector<const project::Experiment*> jobs;
  std::vector<const project::Experiment*> pods;
  std::vector<const project::Image*> dockerfiles;
  bool namespace_object = false;
  bool driver_installer = false;
  bool storage = false;
  bool kueue = false;  // the ResourceFlavors, ClusterQueue and LocalQueue of `kueue:`
  bool compute_classes = false;  // the ComputeClass of each experiment with a `fallback:`
};

// Every TARGET the project offers, fixed names first (namespace, driver-installer, storage, kueue,
// compute-classes), then each experiment and image by name and as kind/NAME: the names an unknown
// target's "did you mean" and shell completion choose from.
std::vector<std::string> target_names(const project::Project& project);

// No targets: every experiment as Jobs plus the namespace, driver installer and storage
// objects they need, the Kueue objects and the ComputeClasses; Dockerfiles only with `all_dockerfiles`.
// Jobs alone (submit) never bring the Kueue objects or ComputeClasses: those are the cluster admin's.
Selection select_targets(const project::Project& project, const std::vector<std::string>& targets,
                         bool all_dockerfiles);

}  // namespace gkebuild::render
