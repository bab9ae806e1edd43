// Which parts of a project a render covers, from the TARGET arguments.
#pragma once

#include <string>
#include <vector>

#include "project/project.h"

namespace gkebuild::render {

struct Selection {
  std::vector<const project::Experiment*> jobs;
  std::vector<const project::Experiment*> pods;
  std::vector<const project::Image*> dockerfiles;
  bool namespace_object = false;
  bool driver_installer = false;
  bool storage = false;
};

// No targets: every experiment as Jobs plus the namespace, driver installer and storage
// objects they need; Dockerfiles only with `all_dockerfiles`.
Selection select_targets(const project::Project& project, const std::vector<std::string>& targets,
                         bool all_dockerfiles);

}  // namespace gkebuild::render
