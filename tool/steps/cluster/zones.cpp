#include "tool/steps/cluster/zones.h"

#include <algorithm>

namespace gkebuild::cluster {
namespace {

using project::GkeCluster;
using project::GpuPool;

std::string region_of(const std::string& location) {
  const bool zone = !location.empty() && !(location.back() >= '0' && location.back() <= '9');
  return zone ? location.substr(0, location.rfind('-')) : location;
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out.empty() ? "none" : out;
}

// The zones of `type` in gcloud's answer (zone is a URL or a name).
std::vector<std::string> listed_zones(const nlohmann::json& listed, const std::string& type) {
  std::vector<std::string> zones;
  if (!listed.is_array()) return zones;
  for (const auto& item : listed) {
    if (!item.is_object() || item.value("name", "") != type) continue;
    std::string zone = item.value("zone", "");
    zones.push_back(zone.substr(zone.rfind('/') + 1));
  }
  return zones;
}

}  // namespace

std::vector<std::string> pool_zones(const GkeCluster& cluster) {
  if (!cluster.node_locations.empty()) return cluster.node_locations;
  if (!cluster.regional()) return {cluster.location};
  return {};
}

std::vector<std::string> pool_zones(const GkeCluster& cluster, const GpuPool& pool) {
  return pool.zones.empty() ? pool_zones(cluster) : pool.zones;
}

std::vector<std::string> zone_warnings(const GkeCluster& cluster, const catalog::Catalog& catalog) {
  std::vector<std::string> warnings;
  const std::string region = region_of(cluster.location);
  for (const auto& pool : cluster.pools) {
    const auto* accelerator = catalog.find(pool.accelerator);
    if (!accelerator || accelerator->zones.list.empty()) continue;
    const auto& zones = accelerator->zones;
    std::vector<std::string> lacking;
    for (const auto& zone : pool_zones(cluster, pool))
      if (zones.lacks(zone)) lacking.push_back(zone);
    const bool region_lacks = pool_zones(cluster, pool).empty() &&
                              std::find(zones.regions.begin(), zones.regions.end(), region) != zones.regions.end() &&
                              zones.in_region(region).empty();
    if (lacking.empty() && !region_lacks) continue;
    warnings.push_back("warning: node pool " + pool.name + ": " + pool.accelerator + " is not offered in " +
                       (region_lacks ? region : joined(lacking)) + " by the catalog (" + zones.source + ", " +
                       zones.date + "); zones of " + region + " that offer it: " + joined(zones.in_region(region)));
  }
  return warnings;
}

Argv list_accelerator_types(const GkeCluster& cluster) {
  std::vector<std::string> types;
  for (const auto& pool : cluster.pools)
    if (!pool.accelerator.empty() && std::find(types.begin(), types.end(), pool.accelerator) == types.end())
      types.push_back(pool.accelerator);
  // A regular expression, not a list: no spaces in the one argument.
  std::string filter = "--filter=name~^(";
  for (std::size_t i = 0; i < types.size(); ++i) filter += (i ? "|" : "") + types[i];
  return {"compute", "accelerator-types", "list", "--project=" + cluster.gcp_project, filter + ")$", "--format=json"};
}

std::string live_zone_problem(const GkeCluster& cluster, const GpuPool& pool, const nlohmann::json& listed) {
  const auto offered = listed_zones(listed, pool.accelerator);
  const std::string region = region_of(cluster.location);
  std::vector<std::string> in_region;
  for (const auto& zone : offered)
    if (region_of(zone) == region) in_region.push_back(zone);
  std::sort(in_region.begin(), in_region.end());
  std::vector<std::string> lacking;
  for (const auto& zone : pool_zones(cluster, pool))
    if (std::find(offered.begin(), offered.end(), zone) == offered.end()) lacking.push_back(zone);
  if (lacking.empty() && !(pool_zones(cluster, pool).empty() && in_region.empty())) return "";
  return "node pool " + pool.name + ": " + pool.accelerator + " is not offered in " +
         (lacking.empty() ? region : joined(lacking)) +
         " (gcloud compute accelerator-types list); zones of " + region + " that offer it: " + joined(in_region) +
         ". Give cluster.nodeLocations from those.";
}

}  // namespace gkebuild::cluster
