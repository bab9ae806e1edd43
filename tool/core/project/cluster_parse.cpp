// The GKE part of `cluster:` in gkebuild.yaml: the cluster (project, location, admin pool)
// and its GPU pools, written out or derived from the experiments' accelerators.
#include <algorithm>
#include <map>
#include <regex>
#include <tuple>

#include "base/printable.h"
#include "base/suggest.h"
#include "tool/core/project/parse_helpers.h"
#include "tool/core/project/quantities.h"
#include "tool/core/yamlfile/fields.h"
#include "tool/core/yamlfile/scalars.h"

namespace gkebuild::project::detail {
namespace {

using yamlfile::Document;
using yamlfile::Fields;

// Keys that make `cluster:` describe a GKE cluster (the others only say how to reach one).
const std::vector<std::string> kGkeKeys{"name",          "gcpProject", "location",  "nodeLocations", "releaseChannel",
                                        "autopilot",     "adminPool",  "gpuPools",      "computeClass"};
const std::vector<std::string> kPoolKeys{"accelerator", "machineType", "gpusPerNode", "minNodes",      "maxNodes",
                                         "spot",        "taints",      "gpuDriver",   "sharing",       "clientsPerGpu",
                                         "migPartition", "provisioning", "reservation", "maxRunDuration", "gvnic",
                                         "compact"};

// The settings every pool starts from: gpuPools' own keys, then each pool's.
struct PoolDefaults {
  int min_nodes = 0;
  int max_nodes = 4;
  std::optional<std::vector<Taint>> taints;
  GpuDriver driver = GpuDriver::Default;
};

Taint parse_taint(const Document& doc, const YAML::Node& node, const std::string& what) {
  const std::string text = yamlfile::as_string(doc, node, what);
  static const std::regex pattern("([A-Za-z0-9][-A-Za-z0-9_./]*)(=([-A-Za-z0-9_.]*))?:(NoSchedule|PreferNoSchedule|NoExecute)");
  std::smatch match;
  if (!std::regex_match(text, match, pattern))
    doc.fail(node, what + ": '" + printable(text) + "' is not KEY=VALUE:EFFECT (EFFECT NoSchedule, PreferNoSchedule or NoExecute)");
  return Taint{match[1], match[3], match[4]};
}

std::vector<Taint> parse_taints(const Fields& fields) {
  std::vector<Taint> taints;
  const YAML::Node list = fields.get("taints");
  if (!list.IsSequence()) fields.document().fail(list, fields.name("taints") + ": expected a list such as [nvidia.com/gpu=present:NoSchedule]");
  for (const auto& item : list) taints.push_back(parse_taint(fields.document(), item, fields.name("taints") + " item"));
  return taints;
}

GpuDriver parse_driver(const Fields& fields, GpuDriver fallback, DriverInstaller installer) {
  if (!fields.has("gpuDriver")) return fallback;
  const std::string text = fields.string("gpuDriver", "");
  const std::vector<std::string> choices{"default", "latest", "installer"};
  GpuDriver driver = GpuDriver::Default;
  if (text == "latest") driver = GpuDriver::Latest;
  else if (text == "installer") driver = GpuDriver::Installer;
  else if (text != "default")
    fields.document().fail(fields.get("gpuDriver"), fields.name("gpuDriver") + ": expected default, latest or installer, got '" +
                                                        printable(text) + "'" + did_you_mean(text, choices));
  if (driver == GpuDriver::Installer && installer != DriverInstaller::Cos && installer != DriverInstaller::Ubuntu)
    fields.document().fail(fields.get("gpuDriver"),
                           fields.name("gpuDriver") + ": installer leaves the driver to the DaemonSet that submit "
                                                      "applies; set cluster.driverInstaller to cos or ubuntu");
  return driver;
}

void read_node_counts(const Fields& fields, int& min_nodes, int& max_nodes) {
  min_nodes = static_cast<int>(fields.integer("minNodes", min_nodes, 0));
  max_nodes = static_cast<int>(fields.integer("maxNodes", max_nodes, 1));
  if (min_nodes > max_nodes)
    fields.document().fail(fields.get(fields.has("minNodes") ? "minNodes" : "maxNodes"),
                           fields.what() + ": minNodes " + std::to_string(min_nodes) + " is above maxNodes " +
                               std::to_string(max_nodes));
}

// The catalog machine type of `pool`: the one named, or the smallest with enough GPUs.
void choose_machine(const Fields& fields, const catalog::Accelerator& accelerator, int wanted_gpus, GpuPool& pool) {
  const Document& doc = fields.document();
  std::vector<std::string> names;
  for (const auto& type : accelerator.machine_types) names.push_back(type.name);
  if (fields.has("machineType")) {
    const std::string name = fields.string("machineType", "");
    for (const auto& type : accelerator.machine_types)
      if (type.name == name) {
        pool.machine_type = type.name;
        pool.gpus_per_node = type.gpus;
      }
    if (pool.machine_type.empty())
      doc.fail(fields.get("machineType"), fields.name("machineType") + ": '" + printable(name) + "' carries no " +
                                              accelerator.label + " in the catalog" + did_you_mean(name, names));
    if (fields.has("gpusPerNode") && fields.integer("gpusPerNode", 1, 1) != pool.gpus_per_node)
      doc.fail(fields.get("gpusPerNode"), fields.name("gpusPerNode") + ": " + pool.machine_type + " has " +
                                              std::to_string(pool.gpus_per_node) + " GPUs");
    return;
  }
  const bool exact = fields.has("gpusPerNode");
  if (exact) wanted_gpus = static_cast<int>(fields.integer("gpusPerNode", 1, 1));
  for (const auto& type : accelerator.machine_types)
    if (exact ? type.gpus == wanted_gpus : type.gpus >= wanted_gpus) {
      pool.machine_type = type.name;
      pool.gpus_per_node = type.gpus;
      return;
    }
  std::string counts;
  for (const auto& type : accelerator.machine_types)
    if (counts.find(" " + std::to_string(type.gpus) + ",") == std::string::npos) counts += " " + std::to_string(type.gpus) + ",";
  counts.pop_back();
  doc.fail(exact ? fields.get("gpusPerNode") : fields.node(),
           fields.what() + ": no " + accelerator.label + " machine type has " + std::to_string(wanted_gpus) +
               " GPUs; the catalog has machines with" + counts);
}

void read_sharing(const Fields& fields, const catalog::Accelerator& accelerator, GpuPool& pool) {
  const Document& doc = fields.document();
  pool.sharing = fields.string("sharing", "");
  if (!pool.sharing.empty() && pool.sharing != "time-sharing" && pool.sharing != "mps")
    doc.fail(fields.get("sharing"), fields.name("sharing") + ": expected time-sharing or mps, got '" +
                                        printable(pool.sharing) + "'" +
                                        did_you_mean(pool.sharing, {"time-sharing", "mps"}));
  if (fields.has("clientsPerGpu") && pool.sharing.empty())
    doc.fail(fields.get("clientsPerGpu"), fields.name("clientsPerGpu") + ": only with sharing: time-sharing or mps");
  if (!pool.sharing.empty()) pool.clients_per_gpu = static_cast<int>(fields.integer("clientsPerGpu", 2, 2));
  pool.partition = fields.string("migPartition", "");
  if (pool.partition.empty()) return;
  if (accelerator.mig_profiles.empty())
    doc.fail(fields.get("migPartition"), fields.name("migPartition") + ": " + accelerator.label +
                                             " cannot be partitioned with MIG (the catalog lists no profiles)");
  if (std::find(accelerator.mig_profiles.begin(), accelerator.mig_profiles.end(), pool.partition) ==
      accelerator.mig_profiles.end()) {
    std::string list;
    for (const auto& profile : accelerator.mig_profiles) list += (list.empty() ? "" : ", ") + profile;
    doc.fail(fields.get("migPartition"), fields.name("migPartition") + ": '" + printable(pool.partition) + "' is not a " +
                                             accelerator.label + " MIG profile (" + list + ")" +
                                             did_you_mean(pool.partition, accelerator.mig_profiles));
  }
}

// The GPU taint GKE adds only when a CPU pool existed first (a pool created in parallel may
// come up without it), written explicitly; spot and flex-start pools also keep on-demand Jobs
// off (GKE taints queued-provisioning nodes itself, cloud.google.com/gke-queued).
std::vector<Taint> default_taints(Provisioning provisioning) {
  std::vector<Taint> taints{{"nvidia.com/gpu", "present", "NoSchedule"}};
  if (provisioning == Provisioning::Spot) taints.push_back({"cloud.google.com/gke-spot", "true", "NoSchedule"});
  if (provisioning == Provisioning::FlexStart)
    taints.push_back({"cloud.google.com/gke-flex-start", "true", "NoSchedule"});
  return taints;
}

// A pool's provisioning, reservation and run-time limit; spot: true is provisioning: spot.
void read_pool_provisioning(const Fields& fields, GpuPool& pool) {
  const Document& doc = fields.document();
  const bool spot = fields.boolean("spot", false);
  const std::string text = fields.string("provisioning", spot ? "spot" : "on-demand");
  const auto provisioning = parse_provisioning(text);
  if (!provisioning)
    doc.fail(fields.get("provisioning"), fields.name("provisioning") + ": expected on-demand, spot, flex-start or queued, got '" +
                                             printable(text) + "'" +
                                             did_you_mean(text, {"on-demand", "spot", "flex-start", "queued"}));
  if (spot && *provisioning != Provisioning::Spot)
    doc.fail(fields.get("spot"), fields.name("spot") + ": spot: true is provisioning: spot, but provisioning says " + text);
  pool.provisioning = *provisioning;
  pool.spot = pool.provisioning == Provisioning::Spot;
  if (is_flex(pool.provisioning) && !fields.has("minNodes")) pool.min_nodes = 0;
  if (is_flex(pool.provisioning) && pool.min_nodes > 0)
    doc.fail(fields.get(fields.has("minNodes") ? "minNodes" : "provisioning"),
             fields.what() + ": a " + text + " pool starts at zero nodes (minNodes 0); GKE adds nodes when it finds capacity");
  if (fields.has("reservation") && pool.provisioning != Provisioning::OnDemand)
    doc.fail(fields.get("reservation"), fields.name("reservation") + ": only on-demand pools consume a reservation");
  if (fields.has("reservation")) {
    const ReservationKey reservation = read_reservation(fields);
    pool.reservation = reservation.name;
    pool.reservation_zone = reservation.zone;
    pool.reservation_where = reservation.where;
  }
  if (!fields.has("maxRunDuration")) return;
  if (pool.provisioning != Provisioning::FlexStart)
    doc.fail(fields.get("maxRunDuration"), fields.name("maxRunDuration") + ": only flex-start pools take it (queued "
                                                                            "nodes live as long as their request asks)");
  const YAML::Node node = fields.get("maxRunDuration");
  const auto seconds = yamlfile::resolve_scalar(node) == yamlfile::ScalarKind::Integer
                           ? std::optional<long long>(yamlfile::as_integer(doc, node, fields.name("maxRunDuration")))
                           : parse_duration(yamlfile::as_string(doc, node, fields.name("maxRunDuration")));
  if (!seconds || *seconds <= 0 || *seconds > 7 * 86400)
    doc.fail(node, fields.name("maxRunDuration") + ": expected a duration up to 7d (seconds, or such as 24h)");
  pool.max_run_seconds = *seconds;
}

GpuPool parse_pool(const Document& doc, const YAML::Node& key, const YAML::Node& value, const PoolDefaults& defaults,
                   DriverInstaller installer, const catalog::Catalog& catalog) {
  GpuPool pool;
  pool.name = key.Scalar();
  pool.where = doc.where(key);
  require_dns_label(doc, key, pool.name, "GPU pool name");
  Fields fields(doc, value, "cluster.gpuPools.pools." + pool.name, kPoolKeys);
  pool.accelerator = fields.required_string("accelerator");
  const auto& accelerator = catalog.get(pool.accelerator, doc.where(fields.get("accelerator")), doc.text());
  choose_machine(fields, accelerator, 1, pool);
  pool.min_nodes = defaults.min_nodes;
  pool.max_nodes = defaults.max_nodes;
  read_node_counts(fields, pool.min_nodes, pool.max_nodes);
  read_pool_provisioning(fields, pool);
  pool.gvnic = fields.boolean("gvnic", false);
  pool.compact = fields.boolean("compact", false);
  if (pool.compact) pool.compact_where = doc.where(fields.get("compact"));
  pool.taints = fields.has("taints") ? parse_taints(fields) : defaults.taints.value_or(default_taints(pool.provisioning));
  pool.driver = parse_driver(fields, defaults.driver, installer);
  read_sharing(fields, accelerator, pool);
  return pool;
}

// What the experiments ask of one derived pool.
struct PoolNeeds {
  int gpus = 1;       // the most GPUs one Job's pod asks for
  int nodes = 1;      // the most nodes one Job spans
  bool multi_node = false;
  bool compact = false;
  SourceLocation compact_where;      // the first experiment's compact key
  std::string reservation_zone;      // the first experiment's reservation.zone
  SourceLocation reservation_where;
};

// "l4", "l4-spot", "h100-flex", "a100-queued", "h100-res-NAME" (a pool name is at most 40 characters).
std::string derived_pool_name(const catalog::Accelerator& accelerator, Provisioning provisioning,
                              const std::string& reservation) {
  std::string name = accelerator.short_name;
  if (provisioning == Provisioning::Spot) name += "-spot";
  if (provisioning == Provisioning::FlexStart) name += "-flex";
  if (provisioning == Provisioning::Queued) name += "-queued";
  if (!reservation.empty()) name += "-res-" + reservation.substr(reservation.rfind('/') + 1);
  if (name.size() > 40) name.resize(40);
  while (name.back() == '-') name.pop_back();
  return name;
}

// One choice of nodes an experiment's Jobs run on: its own, or (with cluster.failover: follow)
// one alternative of its fallback: list, which needs a pool of its own as well.
struct NodeChoice {
  std::string accelerator;
  Provisioning provisioning;
  std::string reservation;
  std::string reservation_zone;
  SourceLocation reservation_where;
  int gpus;
  int nodes;
};

// The choices of `experiment` that need a derived pool: none for an experiment with a fallback
// carried out by a ComputeClass (GKE creates the class's pools), else its own accelerators and,
// with follow, every alternative.
std::vector<NodeChoice> node_choices(const Experiment& experiment, Failover failover) {
  std::vector<NodeChoice> choices;
  if (!experiment.fallback.empty() && failover == Failover::ComputeClass) return choices;
  for (const auto& label : experiment.accelerators)
    choices.push_back({label, experiment.provisioning, experiment.reservation, experiment.reservation_zone,
                       experiment.reservation_where, experiment.gpus, experiment.nodes});
  for (const auto& alternative : experiment.fallback)
    choices.push_back({alternative.accelerator, alternative.provisioning, alternative.reservation,
                       alternative.reservation_zone, alternative.reservation_where, alternative.gpus,
                       alternative.nodes});
  return choices;
}

// Adds what one choice of `experiment` asks of its pool to `needs`.
void add_needs(PoolNeeds& needs, const NodeChoice& choice, const Experiment& experiment, std::string_view source) {
  needs.gpus = std::max(needs.gpus, choice.gpus);
  needs.nodes = std::max(needs.nodes, choice.nodes);
  needs.multi_node = needs.multi_node || choice.nodes > 1;
  // Compact placement is the experiment's; only a multi-node choice has nodes to keep close.
  const bool compact = experiment.compact && choice.nodes > 1;
  if (compact && !needs.compact) needs.compact_where = experiment.compact_where;
  needs.compact = needs.compact || compact;
  if (!choice.reservation_zone.empty()) {
    // The experiments that consume one reservation share its pool, and a reservation is in one zone.
    if (!needs.reservation_zone.empty() && needs.reservation_zone != choice.reservation_zone)
      throw SourceError(choice.reservation_where,
                        "reservation.zone: " + choice.reservation_zone + ", but another experiment gives " +
                            choice.reservation + " the zone " + needs.reservation_zone +
                            "; a reservation holds its VMs in one zone",
                        source);
    needs.reservation_zone = choice.reservation_zone;
    needs.reservation_where = choice.reservation_where;
  } else if (!choice.reservation.empty() && needs.reservation_where.line == 0) {
    needs.reservation_where = choice.reservation_where;
  }
}

// One pool per accelerator, provisioning and reservation the experiments use (with failover:
// follow, their alternatives too), with the smallest machine type that holds the most GPUs one
// of their Jobs asks for (per node), room for the most nodes one Job spans, and gVNIC (and
// compact placement when asked) for multi-node Jobs.
std::vector<GpuPool> derived_pools(const std::vector<Experiment>& experiments, Failover failover,
                                   const PoolDefaults& defaults, const catalog::Catalog& catalog,
                                   const SourceLocation& where, std::string_view source) {
  using Key = std::tuple<std::string, Provisioning, std::string>;  // label, provisioning, reservation
  std::map<Key, PoolNeeds> wanted;
  std::vector<Key> order;
  for (const auto& experiment : experiments)
    for (const auto& choice : node_choices(experiment, failover)) {
      const Key key{choice.accelerator, choice.provisioning, choice.reservation};
      if (!wanted.count(key)) order.push_back(key);
      add_needs(wanted[key], choice, experiment, source);
    }
  std::vector<GpuPool> pools;
  for (const auto& key : order) {
    const auto& [label, provisioning, reservation] = key;
    const PoolNeeds& needs = wanted[key];
    const auto& accelerator = *catalog.find(label);
    GpuPool pool;
    pool.name = derived_pool_name(accelerator, provisioning, reservation);
    pool.accelerator = accelerator.label;
    for (const auto& type : accelerator.machine_types)
      if (pool.machine_type.empty() && type.gpus >= needs.gpus) {
        pool.machine_type = type.name;
        pool.gpus_per_node = type.gpus;
      }
    pool.min_nodes = is_flex(provisioning) ? 0 : defaults.min_nodes;
    pool.max_nodes = std::max(defaults.max_nodes, needs.nodes);
    pool.provisioning = provisioning;
    pool.spot = provisioning == Provisioning::Spot;
    pool.reservation = reservation;
    pool.reservation_zone = needs.reservation_zone;
    pool.reservation_where = needs.reservation_where;
    pool.gvnic = needs.multi_node;
    pool.compact = needs.compact;
    pool.compact_where = needs.compact_where;
    pool.taints = defaults.taints.value_or(default_taints(provisioning));
    pool.driver = defaults.driver;
    pool.derived = true;
    pool.where = where;
    pools.push_back(std::move(pool));
  }
  return pools;
}

// One CPU pool per machine type and provisioning the CPU-only experiments use (cpu-e2-standard-4,
// cpu-…-spot): no accelerator, no nvidia.com/gpu taint (only a spot pool's gke-spot one, which
// its Jobs tolerate), and from zero nodes like the GPU pools, within gpuPools' node counts.
std::vector<GpuPool> cpu_pools(const std::vector<Experiment>& experiments, const PoolDefaults& defaults,
                               const SourceLocation& where) {
  std::vector<GpuPool> pools;
  for (const auto& experiment : experiments) {
    if (!experiment.cpu_only()) continue;
    const std::string name = "cpu-" + experiment.machine_type + (experiment.spot ? "-spot" : "");
    if (std::any_of(pools.begin(), pools.end(), [&](const GpuPool& pool) { return pool.name == name; })) continue;
    GpuPool pool;
    pool.name = name.size() > 40 ? name.substr(0, 40) : name;
    pool.machine_type = experiment.machine_type;
    pool.gpus_per_node = 0;
    pool.min_nodes = defaults.min_nodes;
    pool.max_nodes = defaults.max_nodes;
    pool.provisioning = experiment.provisioning;
    pool.spot = experiment.spot;
    if (pool.spot) pool.taints.push_back({"cloud.google.com/gke-spot", "true", "NoSchedule"});
    pool.derived = true;
    pool.where = where;
    pools.push_back(std::move(pool));
  }
  return pools;
}

std::vector<GpuPool> parse_listed_or_derived_pools(const Document& doc, const YAML::Node& node, const Project& project,
                                                   const catalog::Catalog& catalog) {
  Fields fields(doc, node, "cluster.gpuPools", {"minNodes", "maxNodes", "taints", "gpuDriver", "pools"});
  PoolDefaults defaults;
  read_node_counts(fields, defaults.min_nodes, defaults.max_nodes);
  if (fields.has("taints")) defaults.taints = parse_taints(fields);
  defaults.driver = parse_driver(fields, GpuDriver::Default, project.cluster.driver_installer);
  if (!fields.has("pools"))
    return derived_pools(project.experiments, project.cluster.failover, defaults, catalog, doc.where(node), doc.text());
  std::vector<GpuPool> pools;
  for (const auto& [key, value] : entries(doc, fields.get("pools"), "cluster.gpuPools.pools"))
    pools.push_back(parse_pool(doc, key, value, defaults, project.cluster.driver_installer, catalog));
  return pools;
}

std::vector<GpuPool> parse_gpu_pools(const Document& doc, const YAML::Node& node, const Project& project,
                                     const catalog::Catalog& catalog) {
  std::vector<GpuPool> pools = parse_listed_or_derived_pools(doc, node, project, catalog);
  Fields fields(doc, node, "cluster.gpuPools", {"minNodes", "maxNodes", "taints", "gpuDriver", "pools"});
  PoolDefaults defaults;
  read_node_counts(fields, defaults.min_nodes, defaults.max_nodes);
  for (auto& pool : cpu_pools(project.experiments, defaults, doc.where(node))) pools.push_back(std::move(pool));
  return pools;
}

void check_locations(const Fields& fields, const GkeCluster& cluster) {
  const Document& doc = fields.document();
  static const std::regex region("[a-z]+-[a-z]+[0-9]+");
  static const std::regex zone("[a-z]+-[a-z]+[0-9]+-[a-z]");
  if (!std::regex_match(cluster.location, region) && !std::regex_match(cluster.location, zone))
    doc.fail(fields.get("location"), "cluster.location: '" + printable(cluster.location) +
                                         "' is neither a region (us-central1) nor a zone (us-central1-a)");
  const std::string region_name = cluster.region();
  const YAML::Node list = fields.get("nodeLocations");
  for (std::size_t i = 0; i < cluster.node_locations.size(); ++i)
    if (!std::regex_match(cluster.node_locations[i], zone) || !cluster.node_locations[i].starts_with(region_name + "-"))
      doc.fail(list[i], "cluster.nodeLocations: '" + printable(cluster.node_locations[i]) + "' is not a zone of " +
                            region_name);
}

std::string listed(const std::vector<std::string>& zones) {
  std::string out;
  for (const auto& zone : zones) out += (out.empty() ? "" : ", ") + zone;
  return out;
}

// A pool that must stay in one zone: a specific reservation holds its VMs in one zone, and a
// compact placement policy puts the nodes close together, in one zone (GKE refuses a COMPACT
// pool that spans zones). The zone is reservation.zone; else the one zone the cluster's pools
// span; else, for compact placement, the first zone of theirs (or of the region, when the
// cluster names none) the catalog offers the GPU in. Otherwise it says which key to change.
void pin_zone(const std::string& text, const GkeCluster& cluster, GpuPool& pool, const catalog::Catalog& catalog) {
  if (!pool.compact && pool.reservation.empty()) return;
  const std::string region = cluster.region();
  std::vector<std::string> spans = cluster.node_locations;
  if (spans.empty() && !cluster.regional()) spans.push_back(cluster.location);
  const std::string spread = spans.empty() ? "every zone of " + region : listed(spans);
  if (!pool.reservation_zone.empty()) {
    const bool in_cluster = spans.empty() ? pool.reservation_zone.starts_with(region + "-")
                                          : std::find(spans.begin(), spans.end(), pool.reservation_zone) != spans.end();
    if (!in_cluster)
      throw SourceError(pool.reservation_where, "reservation.zone: " + pool.reservation_zone +
                                                    " is not a zone the cluster's nodes may use (" + spread + ")", text);
    pool.zones = {pool.reservation_zone};
    return;
  }
  if (spans.size() == 1) return;  // the cluster's pools are single-zone already
  if (!pool.reservation.empty())
    throw SourceError(pool.reservation_where, "reservation: a reservation holds VMs in one zone, but node pool " +
                                                  pool.name + " would span " + spread +
                                                  "; give its zone: reservation: {name: " + pool.reservation +
                                                  ", zone: ZONE}", text);
  std::vector<std::string> offered;
  if (const auto* accelerator = catalog.find(pool.accelerator)) {
    if (spans.empty()) offered = accelerator->zones.in_region(region);
    for (const auto& zone : spans)
      if (!accelerator->zones.lacks(zone)) offered.push_back(zone);
  }
  if (offered.empty())
    throw SourceError(pool.compact_where, "compact: compact placement needs a single-zone node pool, and the catalog "
                                          "knows no zone of " + spread + " with " + pool.accelerator +
                                          "; give cluster.nodeLocations one zone that offers it", text);
  pool.zones = {offered.front()};
}

}  // namespace

const std::vector<std::string>& cluster_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> all{"context", "namespace", "driverInstaller", "serviceAccount", "jobset", "failover"};
    all.insert(all.end(), kGkeKeys.begin(), kGkeKeys.end());
    return all;
  }();
  return keys;
}

Failover parse_failover(const Fields& fields) {
  const std::string text = fields.string("failover", "computeClass");
  if (text == "computeClass") return Failover::ComputeClass;
  if (text == "follow") return Failover::Follow;
  fields.document().fail(fields.get("failover"), fields.name("failover") + ": expected computeClass (GKE falls back "
                                                     "itself) or follow (the follower recreates a waiting point on "
                                                     "the next alternative), got '" + printable(text) + "'" +
                                                     did_you_mean(text, {"computeClass", "follow"}));
}

std::optional<GkeCluster> parse_gke_cluster(const Document& doc, const YAML::Node& node, const Project& project,
                                            const catalog::Catalog& catalog) {
  if (!node || !node.IsMap()) return std::nullopt;
  Fields fields(doc, node, "cluster", cluster_keys());
  if (std::none_of(kGkeKeys.begin(), kGkeKeys.end(), [&](const auto& key) { return fields.has(key); }))
    return std::nullopt;
  GkeCluster cluster;
  cluster.where = doc.where(node);
  cluster.name = fields.string("name", project.name);
  require_dns_label(doc, fields.has("name") ? fields.get("name") : node, cluster.name, "cluster.name");
  cluster.gcp_project = fields.required_string("gcpProject");
  static const std::regex project_id("[a-z][-a-z0-9]{4,28}[a-z0-9]");
  if (!std::regex_match(cluster.gcp_project, project_id))
    doc.fail(fields.get("gcpProject"), "cluster.gcpProject: '" + printable(cluster.gcp_project) +
                                           "' is not a GCP project id (6 to 30 lower-case letters, digits, '-')");
  cluster.location = fields.required_string("location");
  cluster.node_locations = fields.strings("nodeLocations");
  check_locations(fields, cluster);
  cluster.release_channel = fields.string("releaseChannel", cluster.release_channel);
  const std::vector<std::string> channels{"rapid", "regular", "stable", "extended"};
  if (std::find(channels.begin(), channels.end(), cluster.release_channel) == channels.end())
    doc.fail(fields.get("releaseChannel"), "cluster.releaseChannel: expected rapid, regular, stable or extended" +
                                               did_you_mean(cluster.release_channel, channels));
  cluster.autopilot = fields.boolean("autopilot", false);
  cluster.compute_class = fields.string("computeClass", "");
  static const std::regex class_name("[a-zA-Z0-9][-a-zA-Z0-9_.]{0,62}");
  if (fields.has("computeClass") && !std::regex_match(cluster.compute_class, class_name))
    doc.fail(fields.get("computeClass"), "cluster.computeClass: '" + printable(cluster.compute_class) +
                                             "' is not a compute class name");
  if (cluster.autopilot) {
    for (const char* key : {"adminPool", "gpuPools", "nodeLocations"})
      if (fields.has(key))
        doc.fail(fields.get(key), std::string("cluster.") + key + ": an Autopilot cluster has no node pools to describe "
                                                                 "(GKE makes nodes from each Pod's requests)");
    if (!cluster.regional())
      doc.fail(fields.get("location"), "cluster.location: Autopilot clusters are regional; give a region");
    cluster.gcs_fuse = project.gcs.has_value();  // on by default there; recorded for the IAM binding
    return cluster;
  }
  Fields admin(doc, fields.get("adminPool"), "cluster.adminPool", {"machineType", "nodes"});
  cluster.admin_machine_type = admin.string("machineType", cluster.admin_machine_type);
  cluster.admin_nodes = static_cast<int>(admin.integer("nodes", cluster.admin_nodes, 1));
  cluster.pools = parse_gpu_pools(doc, fields.get("gpuPools"), project, catalog);
  cluster.gcs_fuse = project.gcs.has_value();
  for (auto& pool : cluster.pools) {
    pool.gke_metadata = cluster.gcs_fuse;
    pin_zone(doc.text(), cluster, pool, catalog);
  }
  return cluster;
}

}  // namespace gkebuild::project::detail
