// `gkebuild cluster up|down`: gcloud run idempotently. up describes the cluster first and
// creates only what is missing; down deletes only what carries the created-by=gkebuild
// label that up puts on everything it creates. Every command is printed before it runs.
#pragma once

#include <ostream>

#include "tool/core/project/project.h"
#include "tool/steps/cluster/gcloud_commands.h"
#include "tool/steps/cluster/gcloud_runner.h"

namespace gkebuild::cluster {

struct UpDownOptions {
  bool dry_run = false;  // describe and list, print what would be created or deleted, change nothing
  std::ostream* out = nullptr;
  GcloudRunner gcloud = run_gcloud;
  std::optional<BucketAccess> bucket;  // storage.gcs: up ends with the IAM binding to run
};

// A failing gcloud (no account, quota, a refused create) is an Error (kFailed) with its message.
void cluster_up(const project::GkeCluster& cluster, const UpDownOptions& options);
void cluster_down(const project::GkeCluster& cluster, const UpDownOptions& options);

}  // namespace gkebuild::cluster
