#include "tool/steps/cluster/quota.h"

#include <map>

namespace gkebuild::cluster {
namespace {

using nlohmann::json;

// Compute Engine's regional quota metric per accelerator (SDK 528's Quota.metric enum); the
// newer families (H100, H200, B200…) are governed through Cloud Quotas and have none here.
std::string family_metric(const std::string& accelerator) {
  static const std::map<std::string, std::string> metrics{
      {"nvidia-tesla-t4", "NVIDIA_T4_GPUS"},     {"nvidia-l4", "NVIDIA_L4_GPUS"},
      {"nvidia-tesla-a100", "NVIDIA_A100_GPUS"}, {"nvidia-a100-80gb", "NVIDIA_A100_80GB_GPUS"},
      {"nvidia-tesla-v100", "NVIDIA_V100_GPUS"}, {"nvidia-tesla-p4", "NVIDIA_P4_GPUS"},
      {"nvidia-tesla-p100", "NVIDIA_P100_GPUS"}, {"nvidia-tesla-k80", "NVIDIA_K80_GPUS"}};
  auto found = metrics.find(accelerator);
  return found == metrics.end() ? "" : found->second;
}

struct Need {
  long gpus = 0;
  std::string pools;
};

void add(Need& need, const project::GpuPool& pool) {
  need.gpus += static_cast<long>(pool.max_nodes) * pool.gpus_per_node;
  need.pools += (need.pools.empty() ? "" : ", ") + pool.name;
}

// Free quota of `metric` in a describe answer, or -1 when it has no such metric.
double free_quota(const json& answer, const std::string& metric) {
  if (!answer.is_object()) return -1;
  for (const auto& quota : answer.value("quotas", json::array()))
    if (quota.value("metric", "") == metric) return quota.value("limit", 0.0) - quota.value("usage", 0.0);
  return -1;
}

std::string number(double value) { return std::to_string(static_cast<long>(value)); }

}  // namespace

std::string region_of(const project::GkeCluster& cluster) {
  return cluster.regional() ? cluster.location : cluster.location.substr(0, cluster.location.rfind('-'));
}

Argv describe_region(const project::GkeCluster& cluster) {
  return {"compute", "regions", "describe", region_of(cluster), "--project=" + cluster.gcp_project, "--format=json"};
}

Argv describe_project(const project::GkeCluster& cluster) {
  return {"compute", "project-info", "describe", "--project=" + cluster.gcp_project, "--format=json"};
}

std::vector<std::string> quota_warnings(const project::GkeCluster& cluster, const json& region, const json& project) {
  std::map<std::string, Need> regional;
  Need all;
  for (const auto& pool : cluster.pools) {
    add(all, pool);
    const std::string metric = family_metric(pool.accelerator);
    // Flex-start (and queued) nodes use the preemptible GPU quota, as Spot does (GKE flex-start how-to).
    const bool preemptible = pool.spot || project::is_flex(pool.provisioning);
    if (!metric.empty()) add(regional[(preemptible ? "PREEMPTIBLE_" : "") + metric], pool);
  }
  std::vector<std::string> lines;
  auto check = [&](const json& answer, const std::string& metric, const Need& need, const std::string& where) {
    const double free = free_quota(answer, metric);
    if (free < 0 || free >= need.gpus) return;
    lines.push_back("quota: " + metric + " " + where + " leaves " + number(free) + " GPUs, and pools " + need.pools +
                    " need " + std::to_string(need.gpus) + " at their maximum: request more (IAM & Admin > Quotas) "
                    "or lower maxNodes");
  };
  if (all.gpus > 0) check(project, "GPUS_ALL_REGIONS", all, "(all regions)");
  for (const auto& [metric, need] : regional) check(region, metric, need, "in " + region_of(cluster));
  return lines;
}

}  // namespace gkebuild::cluster
