#include "tool/steps/cluster/gcloud_commands.h"

#include "base/printable.h"

namespace gkebuild::cluster {
namespace {

using project::GkeCluster;
using project::GpuPool;

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ",") + item;
  return out;
}

Argv where(const GkeCluster& cluster) {
  return {"--project=" + cluster.gcp_project, "--location=" + cluster.location};
}

// A comment line of the script: a newline in what it quotes (a project file named
// $'a\ntouch x\n.yaml') would end the comment and start a command, so it is escaped.
std::string comment_line(std::string_view text) { return "# " + printable(text) + "\n"; }

std::string labels() { return std::string("--labels=") + kCreatedByKey + "=" + kCreatedByValue; }

void append(Argv& args, const Argv& more) { args.insert(args.end(), more.begin(), more.end()); }

std::string driver_version(project::GpuDriver driver) {
  switch (driver) {
    case project::GpuDriver::Latest: return "latest";
    case project::GpuDriver::Installer: return "disabled";  // the DaemonSet installs it
    case project::GpuDriver::Default: break;
  }
  return "default";
}

// Flex-start (and queued provisioning) and reservation affinity, as GKE's recipes write them.
Argv provisioning_flags(const GpuPool& pool) {
  Argv args;
  if (project::is_flex(pool.provisioning)) args.push_back("--flex-start");
  if (pool.provisioning == project::Provisioning::Queued) args.push_back("--enable-queued-provisioning");
  if (pool.max_run_seconds > 0) args.push_back("--max-run-duration=" + std::to_string(pool.max_run_seconds) + "s");
  if (project::is_flex(pool.provisioning)) args.push_back("--reservation-affinity=none");
  if (!pool.reservation.empty()) {
    args.push_back("--reservation-affinity=specific");
    args.push_back("--reservation=" + pool.reservation);
  }
  return args;
}

}  // namespace

std::string location_policy(const GpuPool& pool) {
  // ANY: whichever zone has capacity (or an unused reservation), fewer Spot preemptions;
  // BALANCED spreads on-demand nodes.
  const bool any = pool.spot || project::is_flex(pool.provisioning) || !pool.reservation.empty();
  return any ? "ANY" : "BALANCED";
}

std::optional<BucketAccess> bucket_access(const project::Project& project) {
  if (!project.gcs || !project.cluster.gke) return std::nullopt;
  const std::string account = project.cluster.service_account.empty() ? "default" : project.cluster.service_account;
  return BucketAccess{project.gcs->bucket, project.gcs->read_only, project.cluster.namespace_name, account};
}

Argv bind_bucket(const GkeCluster& cluster, const BucketAccess& access, const std::string& project_number) {
  return {"storage", "buckets", "add-iam-policy-binding", "gs://" + access.bucket,
          "--member=principal://iam.googleapis.com/projects/" + project_number +
              "/locations/global/workloadIdentityPools/" + cluster.workload_pool() + "/subject/ns/" +
              access.namespace_name + "/sa/" + access.service_account,
          // objectUser writes too (gcsfuse docs: read-write needs uniform bucket-level access).
          std::string("--role=roles/storage.") + (access.read_only ? "objectViewer" : "objectUser")};
}

std::string accelerator_flag(const GpuPool& pool) {
  // gpu-driver-version is always written: gcloud and the provider disagree on what its absence means.
  std::string value = "type=" + pool.accelerator + ",count=" + std::to_string(pool.gpus_per_node) +
                      ",gpu-driver-version=" + driver_version(pool.driver);
  if (!pool.partition.empty()) value += ",gpu-partition-size=" + pool.partition;
  if (!pool.sharing.empty())
    value += ",gpu-sharing-strategy=" + pool.sharing + ",max-shared-clients-per-gpu=" + std::to_string(pool.clients_per_gpu);
  return value;
}

Argv create_cluster(const GkeCluster& cluster) {
  Argv args{"container", "clusters", cluster.autopilot ? "create-auto" : "create", cluster.name};
  append(args, where(cluster));
  args.push_back("--release-channel=" + cluster.release_channel);
  if (!cluster.autopilot) {
    if (!cluster.node_locations.empty()) args.push_back("--node-locations=" + joined(cluster.node_locations));
    // The default pool is the admin pool: small, always on, for kube-system.
    args.push_back("--machine-type=" + cluster.admin_machine_type);
    args.push_back("--num-nodes=" + std::to_string(cluster.admin_nodes));
    // Scale-down of idle GPU nodes sooner than the balanced profile.
    args.push_back("--autoscaling-profile=optimize-utilization");
    if (cluster.gcs_fuse) {
      // --addons enables only what it lists: the defaults stay on by being listed too.
      args.push_back("--addons=HttpLoadBalancing,HorizontalPodAutoscaling,GcsFuseCsiDriver");
      args.push_back("--workload-pool=" + cluster.workload_pool());
    }
  }
  args.push_back(labels());
  return args;
}

Argv create_pool(const GkeCluster& cluster, const GpuPool& pool) {
  Argv args{"container", "node-pools", "create", pool.name, "--cluster=" + cluster.name};
  append(args, where(cluster));
  // A compact or reservation pool keeps to its one zone (pool.zones), others take the cluster's.
  const auto& zones = pool.zones.empty() ? cluster.node_locations : pool.zones;
  if (!zones.empty()) args.push_back("--node-locations=" + joined(zones));
  args.push_back("--machine-type=" + pool.machine_type);
  if (!pool.accelerator.empty()) args.push_back("--accelerator=" + accelerator_flag(pool));  // "": a CPU pool
  if (pool.spot) args.push_back("--spot");
  append(args, provisioning_flags(pool));
  args.push_back("--num-nodes=" + std::to_string(pool.min_nodes));
  args.push_back("--enable-autoscaling");
  args.push_back("--total-min-nodes=" + std::to_string(pool.min_nodes));
  args.push_back("--total-max-nodes=" + std::to_string(pool.max_nodes));
  args.push_back("--location-policy=" + location_policy(pool));
  if (project::is_flex(pool.provisioning)) args.push_back("--no-enable-autorepair");  // as GKE's flex-start recipes
  if (pool.gvnic) args.push_back("--enable-gvnic");
  if (pool.compact) args.push_back("--placement-type=COMPACT");
  if (pool.gke_metadata) args.push_back("--workload-metadata=GKE_METADATA");
  std::vector<std::string> taints;
  for (const auto& taint : pool.taints) taints.push_back(taint.key + "=" + taint.value + ":" + taint.effect);
  if (!taints.empty()) args.push_back("--node-taints=" + joined(taints));
  args.push_back(labels());
  return args;
}

namespace {

// `gcloud container GROUP VERB NAME…` on this cluster, ending with `last`.
Argv cluster_verb(const GkeCluster& cluster, const std::string& group, const std::string& verb, Argv names,
                  const std::string& last) {
  Argv args{"container", group, verb};
  append(args, names);
  append(args, where(cluster));
  args.push_back(last);
  return args;
}

}  // namespace

Argv describe_cluster(const GkeCluster& cluster) {
  return cluster_verb(cluster, "clusters", "describe", {cluster.name}, "--format=json");
}

Argv list_pools(const GkeCluster& cluster) {
  return cluster_verb(cluster, "node-pools", "list", {"--cluster=" + cluster.name}, "--format=json");
}

Argv delete_pool(const GkeCluster& cluster, const std::string& pool) {
  return cluster_verb(cluster, "node-pools", "delete", {pool, "--cluster=" + cluster.name}, "--quiet");
}

Argv delete_cluster(const GkeCluster& cluster) {
  return cluster_verb(cluster, "clusters", "delete", {cluster.name}, "--quiet");
}

namespace {

std::string quoted(const std::string& word) {
  if (!word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=.,/:@") ==
                           std::string::npos)
    return word;
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The command words, then one flag per continued line.
std::string script_lines(const Argv& args) {
  std::string out = "gcloud";
  for (const auto& arg : args) out += (arg.starts_with("--") ? " \\\n  " : " ") + quoted(arg);
  return out + "\n";
}

}  // namespace

std::string shell_line(const Argv& args) {
  std::string out = "gcloud";
  for (const auto& arg : args) out += " " + quoted(arg);
  return out;
}

std::string bucket_binding_lines(const GkeCluster& cluster, const BucketAccess& access) {
  // The member names the project by number, which only GCP knows: the script asks for it.
  std::string binding = script_lines(bind_bucket(cluster, access, "PROJECT_NUMBER"));
  binding.replace(binding.find("PROJECT_NUMBER"), 14, "\"$project_number\"");
  return comment_line("Workload Identity: the Jobs' ServiceAccount " + access.namespace_name + "/" +
                      access.service_account + " gets the bucket " + access.bucket +
                      (access.read_only ? " (read)." : " (read and write).")) +
         "project_number=$(gcloud projects describe " + quoted(cluster.gcp_project) +
         " --format='value(projectNumber)')\n" + binding;
}

std::string gcloud_script(const GkeCluster& cluster, const std::string& project_file,
                          const std::optional<BucketAccess>& bucket) {
  std::string out = "#!/bin/sh\n" +
                    comment_line("GKE cluster " + cluster.name + " of " + project_file +
                                 ", rendered by `gkebuild cluster render`.") +
                    comment_line("`gkebuild cluster up` runs the same commands, skipping what already exists.") +
                    "set -eu\n\n";
  out += script_lines(create_cluster(cluster));
  for (const auto& pool : cluster.pools) out += "\n" + script_lines(create_pool(cluster, pool));
  out += "\ngcloud container clusters get-credentials " + quoted(cluster.name) + " --project=" +
         quoted(cluster.gcp_project) + " --location=" + quoted(cluster.location) + "\n";
  if (bucket) out += "\n" + bucket_binding_lines(cluster, *bucket);
  return out;
}

}  // namespace gkebuild::cluster
