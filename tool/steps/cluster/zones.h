// Which zones offer a pool's GPU: `cluster render` and `up` warn from the accelerator catalog
// (tool/core/catalog/accelerators.yaml, zones) when a pool's node locations include a zone without
// it, naming the zones that have it; `up` asks gcloud (compute accelerator-types list) before
// it creates a pool and refuses a pool whose zones lack the GPU. A pool placed in such a zone
// otherwise fails only at creation, or never scales up.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "tool/core/catalog/catalog.h"
#include "tool/core/project/project.h"
#include "tool/steps/cluster/gcloud_commands.h"

namespace gkebuild::cluster {

// The zones a pool's nodes go to: nodeLocations, or the zone of a zonal cluster; empty for a
// regional cluster without nodeLocations (GKE picks the zones).
std::vector<std::string> pool_zones(const project::GkeCluster& cluster);
// The zones of one pool: its own (compact placement, a zonal reservation), else the cluster's.
std::vector<std::string> pool_zones(const project::GkeCluster& cluster, const project::GpuPool& pool);

// One line per pool zone the catalog knows to lack the pool's GPU.
std::vector<std::string> zone_warnings(const project::GkeCluster& cluster, const catalog::Catalog& catalog);

// compute accelerator-types list of the pools' GPU types, --format=json.
Argv list_accelerator_types(const project::GkeCluster& cluster);

// What is wrong with `pool` by gcloud's `listed` answer: "" when every zone of the pool (or,
// for GKE-picked zones, some zone of the region) offers its GPU, else the message.
std::string live_zone_problem(const project::GkeCluster& cluster, const project::GpuPool& pool,
                              const nlohmann::json& listed);

}  // namespace gkebuild::cluster
