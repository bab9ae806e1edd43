// The gcloud commands that make, inspect and remove the project's GKE cluster and its
// node pools (gcloud flags as SDK 528 knows them), as argv lists and as a shell script.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tool/core/project/project.h"

namespace gkebuild::cluster {

// GCP resource label on everything `gkebuild cluster up` creates: `down` removes only those.
inline constexpr const char* kCreatedByKey = "created-by";
inline constexpr const char* kCreatedByValue = "gkebuild";

using Argv = std::vector<std::string>;  // without the leading "gcloud"

Argv create_cluster(const project::GkeCluster& cluster);  // clusters create (admin pool) or create-auto
Argv create_pool(const project::GkeCluster& cluster, const project::GpuPool& pool);
Argv describe_cluster(const project::GkeCluster& cluster);  // --format=json
Argv list_pools(const project::GkeCluster& cluster);        // --format=json
Argv delete_pool(const project::GkeCluster& cluster, const std::string& pool);
Argv delete_cluster(const project::GkeCluster& cluster);

// The --accelerator value: type=T,count=N,gpu-driver-version=V[,gpu-partition-size=P][,sharing…].
std::string accelerator_flag(const project::GpuPool& pool);

// --location-policy of a pool: ANY for Spot, flex-start and reservations, else BALANCED.
std::string location_policy(const project::GpuPool& pool);

// storage.gcs: who needs the bucket (the Jobs' Kubernetes ServiceAccount, through Workload Identity).
struct BucketAccess {
  std::string bucket;
  bool read_only = false;
  std::string namespace_name;
  std::string service_account;  // "default" unless cluster.serviceAccount names one
};
std::optional<BucketAccess> bucket_access(const project::Project& project);
// gcloud storage buckets add-iam-policy-binding for that ServiceAccount's principal (no Google
// service account needed); objectViewer for a read-only mount, else objectUser.
Argv bind_bucket(const project::GkeCluster& cluster, const BucketAccess& access, const std::string& project_number);
// The same as script lines that first ask gcloud for the project number.
std::string bucket_binding_lines(const project::GkeCluster& cluster, const BucketAccess& access);

// "gcloud container …" with each word quoted for /bin/sh where it needs it.
std::string shell_line(const Argv& args);

// A /bin/sh script that creates the cluster and every GPU pool (what `cluster up` runs on an
// empty project), one flag per line.
// With `bucket`, the IAM binding for storage.gcs follows.
std::string gcloud_script(const project::GkeCluster& cluster, const std::string& project_file,
                          const std::optional<BucketAccess>& bucket = std::nullopt);

}  // namespace gkebuild::cluster
