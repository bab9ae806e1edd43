#include "tool/steps/cluster/up_down.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <set>

#include "base/error.h"
#include "tool/steps/cluster/quota.h"
#include "tool/steps/cluster/zones.h"

namespace gkebuild::cluster {
namespace {

using nlohmann::json;
using project::GkeCluster;

[[noreturn]] void fail(const Argv& args, const GcloudResult& result) {
  throw Error(ErrorKind::kFailed, shell_line(args) + " failed:\n" + gcloud_message(result));
}

json run_json(const UpDownOptions& options, const Argv& args) {
  const GcloudResult result = options.gcloud(args);
  if (result.exit_code != 0) fail(args, result);
  json parsed = json::parse(result.out, nullptr, false);
  if (parsed.is_discarded()) throw Error(ErrorKind::kFailed, shell_line(args) + " printed no JSON");
  return parsed;
}

// The cluster as `describe` shows it, or nullopt when GCP says there is none.
std::optional<json> describe(const GkeCluster& cluster, const UpDownOptions& options) {
  const Argv args = describe_cluster(cluster);
  const GcloudResult result = options.gcloud(args);
  if (result.exit_code == 0) {
    json parsed = json::parse(result.out, nullptr, false);
    return parsed.is_object() ? parsed : json::object();
  }
  const std::string& err = result.err;
  if (err.find("NotFound") != std::string::npos || err.find("not found") != std::string::npos ||
      err.find("was not found") != std::string::npos || err.find("404") != std::string::npos)
    return std::nullopt;
  fail(args, result);
}

bool created_by_gkebuild(const json& labels) {
  return labels.is_object() && labels.value(kCreatedByKey, "") == kCreatedByValue;
}

// Prints the command, then runs it unless this is a dry run.
void perform(const UpDownOptions& options, const Argv& args) {
  *options.out << (options.dry_run ? "would run: " : "+ ") << shell_line(args) << "\n" << std::flush;
  if (options.dry_run) return;
  const GcloudResult result = options.gcloud(args);
  if (result.exit_code != 0) fail(args, result);
}

std::string accelerator_of(const json& pool) {
  const json accelerators = pool.value("config", json::object()).value("accelerators", json::array());
  return accelerators.is_array() && !accelerators.empty() ? accelerators[0].value("acceleratorType", "") : "";
}

// A pool of the same name that is not what the project describes is kept, with a note.
void note_existing_pool(const UpDownOptions& options, const project::GpuPool& wanted, const json& pool) {
  const std::string machine = pool.value("config", json::object()).value("machineType", "");
  const std::string accelerator = accelerator_of(pool);
  *options.out << "node pool " << wanted.name << " exists";
  if (machine != wanted.machine_type || accelerator != wanted.accelerator)
    *options.out << " as " << machine << " with " << (accelerator.empty() ? "no GPU" : accelerator)
                 << ", not " << wanted.machine_type << " with " << wanted.accelerator
                 << ": kept as it is (delete it with gcloud to have it made again)";
  *options.out << "\n";
}

// Quota is read, never required: an account without compute.regions.get still gets its cluster.
void warn_about_quota(const GkeCluster& cluster, const UpDownOptions& options) {
  if (cluster.pools.empty()) return;
  const GcloudResult region = options.gcloud(describe_region(cluster));
  const GcloudResult project = options.gcloud(describe_project(cluster));
  if (region.exit_code != 0 || project.exit_code != 0) {
    *options.out << "quota not checked: " << gcloud_message(region.exit_code != 0 ? region : project) << "\n";
    return;
  }
  for (const auto& line : quota_warnings(cluster, json::parse(region.out, nullptr, false),
                                         json::parse(project.out, nullptr, false)))
    *options.out << line << "\n";
}

// Before anything is created: the catalog's warnings, then gcloud's own list of the zones
// that offer each GPU, for the pools still to make. A listing refused (permissions) is a note.
void check_zones(const GkeCluster& cluster, const UpDownOptions& options, const std::map<std::string, json>& existing) {
  for (const auto& line : zone_warnings(cluster, catalog::Catalog::builtin())) *options.out << line << "\n";
  std::vector<const project::GpuPool*> to_create;
  for (const auto& pool : cluster.pools)  // a CPU pool (no accelerator) has no GPU zones to check
    if (!existing.contains(pool.name) && !pool.accelerator.empty()) to_create.push_back(&pool);
  if (to_create.empty()) return;
  const GcloudResult listed = options.gcloud(list_accelerator_types(cluster));
  if (listed.exit_code != 0) {
    *options.out << "accelerator zones not checked: " << gcloud_message(listed) << "\n";
    return;
  }
  const json types = json::parse(listed.out, nullptr, false);
  for (const auto* pool : to_create)
    if (const std::string problem = live_zone_problem(cluster, *pool, types); !problem.empty())
      throw Error(ErrorKind::kFailed, problem);
}

}  // namespace

void cluster_up(const GkeCluster& cluster, const UpDownOptions& options) {
  const auto existing = describe(cluster, options);
  warn_about_quota(cluster, options);
  std::map<std::string, json> pools;
  if (existing) {
    *options.out << "cluster " << cluster.name << " exists in " << cluster.gcp_project << " (" << cluster.location
                 << ")\n";
    if (!cluster.autopilot)
      for (const auto& pool : run_json(options, list_pools(cluster))) pools[pool.value("name", "")] = pool;
  }
  check_zones(cluster, options, pools);
  if (!existing) perform(options, create_cluster(cluster));
  for (const auto& pool : cluster.pools) {
    if (auto found = pools.find(pool.name); found != pools.end()) note_existing_pool(options, pool, found->second);
    else perform(options, create_pool(cluster, pool));
  }
  if (!options.dry_run)
    *options.out << "cluster " << cluster.name << " is up; kubectl credentials: gcloud container clusters get-credentials "
                 << cluster.name << " --project=" << cluster.gcp_project << " --location=" << cluster.location << "\n";
  // Granting a bucket is the bucket owner's call: printed, not run.
  if (options.bucket) *options.out << "\n" << bucket_binding_lines(cluster, *options.bucket);
}

void cluster_down(const GkeCluster& cluster, const UpDownOptions& options) {
  const auto existing = describe(cluster, options);
  if (!existing) {
    *options.out << "cluster " << cluster.name << " does not exist in " << cluster.gcp_project << " (" << cluster.location
                 << "): nothing to delete\n";
    return;
  }
  const bool ours = created_by_gkebuild(existing->value("resourceLabels", json::object()));
  std::vector<std::string> our_pools, other_pools;
  const json listed = cluster.autopilot || existing->value("autopilot", json::object()).value("enabled", false)
                          ? json::array()
                          : run_json(options, list_pools(cluster));
  for (const auto& pool : listed) {
    const std::string name = pool.value("name", "");
    // clusters create makes default-pool with the cluster: it is ours when the cluster is.
    const bool pool_ours = created_by_gkebuild(pool.value("config", json::object()).value("resourceLabels", json::object())) ||
                           (ours && name == "default-pool");
    (pool_ours ? our_pools : other_pools).push_back(name);
  }
  if (ours && other_pools.empty()) {
    perform(options, delete_cluster(cluster));
    return;
  }
  for (const auto& name : our_pools)
    if (name != "default-pool") perform(options, delete_pool(cluster, name));
  std::string others;
  for (const auto& name : other_pools) others += (others.empty() ? "" : ", ") + name;
  *options.out << "cluster " << cluster.name << " kept: "
               << (ours ? "it holds node pools gkebuild did not create (" + others + ")"
                        : std::string("gkebuild did not create it (no ") + kCreatedByKey + "=" + kCreatedByValue +
                              " label)")
               << "\n";
}

}  // namespace gkebuild::cluster
