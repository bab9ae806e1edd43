#include "cluster/gcloud_commands.h"

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

}  // namespace

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
  }
  args.push_back(labels());
  return args;
}

Argv create_pool(const GkeCluster& cluster, const GpuPool& pool) {
  Argv args{"container", "node-pools", "create", pool.name, "--cluster=" + cluster.name};
  append(args, where(cluster));
  if (!cluster.node_locations.empty()) args.push_back("--node-locations=" + joined(cluster.node_locations));
  args.push_back("--machine-type=" + pool.machine_type);
  args.push_back("--accelerator=" + accelerator_flag(pool));
  if (pool.spot) args.push_back("--spot");
  args.push_back("--num-nodes=" + std::to_string(pool.min_nodes));
  args.push_back("--enable-autoscaling");
  args.push_back("--total-min-nodes=" + std::to_string(pool.min_nodes));
  args.push_back("--total-max-nodes=" + std::to_string(pool.max_nodes));
  // ANY: whichever zone has capacity, fewer Spot preemptions; BALANCED spreads on-demand nodes.
  args.push_back(std::string("--location-policy=") + (pool.spot ? "ANY" : "BALANCED"));
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

std::string gcloud_script(const GkeCluster& cluster, const std::string& project_file) {
  std::string out = "#!/bin/sh\n" +
                    comment_line("GKE cluster " + cluster.name + " of " + project_file +
                                 ", rendered by `gkebuild cluster render`.") +
                    comment_line("`gkebuild cluster up` runs the same commands, skipping what already exists.") +
                    "set -eu\n\n";
  out += script_lines(create_cluster(cluster));
  for (const auto& pool : cluster.pools) out += "\n" + script_lines(create_pool(cluster, pool));
  out += "\ngcloud container clusters get-credentials " + quoted(cluster.name) + " --project=" +
         quoted(cluster.gcp_project) + " --location=" + quoted(cluster.location) + "\n";
  return out;
}

}  // namespace gkebuild::cluster
