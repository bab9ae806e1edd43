// The project's GKE cluster as a Terraform module (hashicorp/google provider):
// google_container_cluster with the admin pool, or Autopilot, and one
// google_container_node_pool per GPU pool (guest_accelerator with the driver,
// sharing and MIG settings, autoscaling, taints, spot, flex-start, queued provisioning,
// reservations, gVNIC, compact placement, Workload Identity). Written as `terraform fmt` writes it.
#pragma once

#include <optional>
#include <string>

#include "tool/core/project/project.h"
#include "tool/steps/cluster/gcloud_commands.h"

namespace gkebuild::cluster {

// With `bucket` (storage.gcs), also the bucket IAM member for the Jobs' ServiceAccount.
std::string terraform_module(const project::GkeCluster& cluster, const std::string& project_file,
                             const std::optional<BucketAccess>& bucket = std::nullopt);

}  // namespace gkebuild::cluster
