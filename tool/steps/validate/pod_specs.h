// Where the pod specs sit inside workload objects, so GPU rules see every container
// whether it is in a Pod, a Job, a CronJob's job template or a JobSet.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "tool/steps/validate/manifest.h"

namespace gkebuild::validate {

struct PodSpecRef {
  Path path;                       // of the pod spec inside the object
  const nlohmann::json* spec;      // the pod spec itself (an object)
};

std::vector<PodSpecRef> pod_specs(const nlohmann::json& object);

struct ContainerRef {
  Path path;
  const nlohmann::json* container;
  bool init = false;
};

std::vector<ContainerRef> containers(const PodSpecRef& pod);

// nullptr unless `object` has `path` (keys only).
const nlohmann::json* find_path(const nlohmann::json& object, const Path& path);

}  // namespace gkebuild::validate
