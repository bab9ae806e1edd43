// GPU quota against what the pools may grow to: GPUS_ALL_REGIONS (project) and the region's
// per-family metric (PREEMPTIBLE_… for spot pools). `cluster up` warns before it creates pools
// that could never reach their maximum; the autoscaler would otherwise back off silently.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "tool/core/project/project.h"
#include "tool/steps/cluster/gcloud_commands.h"

namespace gkebuild::cluster {

// The region of a cluster location (us-central1 for us-central1-a).
std::string region_of(const project::GkeCluster& cluster);

Argv describe_region(const project::GkeCluster& cluster);   // compute regions describe --format=json
Argv describe_project(const project::GkeCluster& cluster);  // compute project-info describe --format=json

// One line per metric whose free quota (limit - usage) is below what the pools need at
// their maximum; `region` and `project` are the two describe answers.
std::vector<std::string> quota_warnings(const project::GkeCluster& cluster, const nlohmann::json& region,
                                        const nlohmann::json& project);

}  // namespace gkebuild::cluster
