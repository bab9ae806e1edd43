// The project's GKE cluster as a Terraform module (hashicorp/google provider):
// google_container_cluster with the admin pool, or Autopilot, and one
// google_container_node_pool per GPU pool (guest_accelerator with the driver,
// sharing and MIG settings, autoscaling, taints, spot). Written as `terraform fmt` writes it.
#pragma once

#include <string>

#include "project/project.h"

namespace gkebuild::cluster {

std::string terraform_module(const project::GkeCluster& cluster, const std::string& project_file);

}  // namespace gkebuild::cluster
