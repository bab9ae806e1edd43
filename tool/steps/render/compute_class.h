// The custom ComputeClass of an experiment with a `fallback:` list (compute-class.yaml.j2): GKE's
// own failover across accelerators and provisioning, tried in the order the project file gives.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "tool/core/catalog/catalog.h"
#include "tool/core/project/project.h"

namespace gkebuild::render {

// "<project>-<experiment>" as a DNS-1123 label of at most 63 characters (the class name is also
// a node label value); GKE refuses class names that start with "gke" or "autopilot", which get
// "cc-" in front.
std::string compute_class_name(const project::Project& project, const project::Experiment& experiment);

// What the pods of such an experiment tolerate besides the GPU taint: {spot, flex_start}, true
// when any rule of its class makes nodes of that kind (they carry its taint), and its
// pending_timeout_seconds (pendingTimeout:); null without a fallback.
nlohmann::ordered_json fallback_json(const project::Experiment& experiment);

// compute-class.yaml.j2: {project, classes [{name, experiment, priorities [{gpu {type, count},
// spot, flex_start, reservation}]}], values}, one class per experiment with a fallback.
nlohmann::ordered_json compute_class_context(const project::Project& project, const nlohmann::ordered_json& values,
                                             const catalog::Catalog& catalog);

}  // namespace gkebuild::render
