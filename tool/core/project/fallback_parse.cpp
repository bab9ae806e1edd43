// `fallback:` of an experiment: the alternatives tried, in order, when the experiment's own
// accelerator and provisioning have no capacity: by GKE through a custom ComputeClass
// (cluster.failover: computeClass), or by the follower, which recreates a waiting point's Job on
// the next alternative (follow); docs/clusters.md.
#include <algorithm>

#include "base/printable.h"
#include "tool/core/project/parse_helpers.h"
#include "tool/core/yamlfile/fields.h"
#include "tool/core/yamlfile/scalars.h"

namespace gkebuild::project::detail {
namespace {

using yamlfile::Document;
using yamlfile::Fields;

// "nvidia-h100-80gb spot", "nvidia-l4 reservation r1": how an alternative is named in messages;
// with follow, where alternatives may differ in shape, "nvidia-l4 x2 on-demand on 2 nodes".
std::string describe(const std::string& accelerator, int gpus, int nodes, Provisioning provisioning,
                     const std::string& reservation, Failover failover) {
  const bool follow = failover == Failover::Follow;
  return accelerator + (follow ? " x" + std::to_string(gpus) : "") + " " +
         (reservation.empty() ? to_string(provisioning) : "reservation " + reservation) +
         (follow && nodes > 1 ? " on " + std::to_string(nodes) + " nodes" : "");
}

// The pods of a Job stay as rendered whichever alternative GKE picks: a ComputeClass chooses the
// nodes, not the pods' GPU requests or their number.
void require_same_shape(const Fields& item, const std::string& key, int given, int own) {
  if (given == own) return;
  item.document().fail(item.get(key), item.name(key) + ": " + std::to_string(given) + " differs from the experiment's " +
                                          std::to_string(own) + "; the ComputeClass that carries the fallback picks nodes, "
                                          "not the pods' " + key + ", so an alternative with other " + key +
                                          " needs the Job recreated: set cluster.failover: follow (the follower-driven "
                                          "fallback, docs/clusters.md)");
}

// Queued nodes come only from a ProvisioningRequest that Kueue makes for an admitted Job; a
// ComputeClass priority cannot ask for them, and Kueue's flavor would pin one accelerator (with
// follow, a Job Kueue holds suspended waits for quota, not nodes: pendingTimeout cannot tell).
void refuse_queued(const Fields& item, Failover failover) {
  item.document().fail(item.get("provisioning"),
                       item.name("provisioning") + ": queued nodes come only through a Kueue ProvisioningRequest, " +
                           (failover == Failover::Follow
                                ? "and the follower cannot tell a Job Kueue holds back from one that waits for nodes"
                                : "which a ComputeClass priority cannot make") +
                           "; use flex-start (nodes one at a time) or spot, on-demand or a reservation");
}

void check_gpus_fit(const Fields& item, const catalog::Accelerator& accelerator, int gpus) {
  int most = 0;
  for (const auto& machine : accelerator.machine_types) most = std::max(most, machine.gpus);
  if (gpus > most)
    item.document().fail(item.has("gpus") ? item.get("gpus") : item.get("accelerator"),
                         item.what() + ": " + std::to_string(gpus) + " GPUs per node, but " + accelerator.label +
                             " machines have at most " + std::to_string(most));
}

Alternative parse_alternative(const Document& doc, const YAML::Node& node, const std::string& what,
                              const Experiment& experiment, const catalog::Catalog& catalog, Failover failover) {
  if (!node.IsMap())
    doc.fail(node, what + ": expected a mapping such as {accelerator: nvidia-a100-80gb, provisioning: spot}, got " +
                       yamlfile::describe(node));
  Fields item(doc, node, what, {"accelerator", "gpus", "nodes", "provisioning", "reservation"});
  Alternative alternative;
  alternative.where = doc.where(node);
  alternative.accelerator = item.required_string("accelerator");
  const auto& accelerator = catalog.get(alternative.accelerator, doc.where(item.get("accelerator")), doc.text());
  alternative.gpus = static_cast<int>(item.integer("gpus", experiment.gpus, 1));
  alternative.nodes = static_cast<int>(item.integer("nodes", experiment.nodes, 1));
  // The follower recreates the Job for the alternative, so its pods may ask for other GPUs.
  if (failover == Failover::ComputeClass) {
    require_same_shape(item, "gpus", alternative.gpus, experiment.gpus);
    require_same_shape(item, "nodes", alternative.nodes, experiment.nodes);
  }
  check_gpus_fit(item, accelerator, alternative.gpus);
  if (item.has("provisioning")) alternative.provisioning = read_provisioning_word(item);
  if (alternative.provisioning == Provisioning::Queued) refuse_queued(item, failover);
  if (alternative.provisioning == Provisioning::FlexStart && alternative.nodes > 1)
    doc.fail(item.get("provisioning"), item.name("provisioning") + ": flex-start VMs come one at a time, so the " +
                                           std::to_string(alternative.nodes) + " nodes of this multi-node Job would "
                                           "start apart and wait for each other on paid GPUs");
  if (item.has("reservation")) {
    const ReservationKey reservation = read_reservation(item);
    alternative.reservation = reservation.name;
    alternative.reservation_zone = reservation.zone;
    alternative.reservation_where = reservation.where;
    if (alternative.provisioning != Provisioning::OnDemand)
      doc.fail(item.get("reservation"), item.name("reservation") + ": a reservation is consumed by on-demand nodes; "
                                                                   "drop provisioning: " +
                                            to_string(alternative.provisioning) + " or the reservation");
  }
  return alternative;
}

// With follow an alternative may span several nodes where the experiment's own Jobs do not: its
// Job is Indexed by node rank and sets the rendezvous variables, as a multi-node experiment's.
void check_multi_node_alternative(const Document& doc, const YAML::Node& node, const std::string& what,
                                  const Experiment& experiment) {
  const YAML::Node at = node["nodes"];
  if (experiment.seeds > 0 || experiment.parallelism > 0)
    doc.fail(at, what + ".nodes: a multi-node Job's completion index is its node rank, and the experiment's " +
                     (experiment.seeds > 0 ? "seeds" : "parallelism") + " needs it for another purpose");
  for (const auto& [name, value] : experiment.env)
    if (name == "MASTER_ADDR" || name == "NNODES" || name == "NODE_RANK" || name == "GPUS_PER_NODE")
      doc.fail(at, what + ".nodes: the experiment's env sets " + name +
                       ", which gkebuild sets in a multi-node Job; only MASTER_PORT may be given");
}

// What the experiment itself asks for must allow a ComputeClass in front of its Jobs, or the
// follower to move its points between alternatives.
void check_experiment_allows_fallback(const Fields& fields, const Experiment& experiment, Failover failover) {
  const Document& doc = fields.document();
  if (experiment.accelerators.size() != 1)
    doc.fail(fields.get("fallback"), fields.name("fallback") + ": the experiment compares " +
                                         std::to_string(experiment.accelerators.size()) +
                                         " accelerators, one Job each; a fallback would let one accelerator's Job run "
                                         "on another's GPUs. Give one accelerator with a fallback list");
  if (experiment.provisioning == Provisioning::Queued)
    refuse_queued(fields, failover);
  // Compact placement is a property of the pool gkebuild derives; GKE makes a class's pools
  // (with follow gkebuild derives them all, and compact placement stays).
  if (experiment.compact && failover == Failover::ComputeClass)
    doc.fail(fields.get("compact"), fields.name("compact") + ": compact placement is set on the node pool gkebuild "
                                                             "makes, and an experiment with a fallback: runs on the "
                                                             "pools GKE creates for its ComputeClass; drop one of them");
  if (!experiment.queue.empty() && failover == Failover::Follow)
    doc.fail(fields.get("fallback"), fields.name("fallback") + ": a Job in a Kueue queue waits suspended for quota, "
                                                               "which the follower cannot tell from waiting for nodes "
                                                               "(pendingTimeout would move points that only wait their "
                                                               "turn); drop queue: or fallback:");
  if (!experiment.queue.empty())
    doc.fail(fields.get("fallback"), fields.name("fallback") + ": Kueue admits a Job to one ResourceFlavor and adds "
                                                               "its node labels (one accelerator) to the pods, which "
                                                               "would undo the fallback; drop queue: or fallback:");
}

}  // namespace

void parse_fallback(const Fields& fields, Experiment& experiment, const catalog::Catalog& catalog, Failover failover) {
  const Document& doc = fields.document();
  const YAML::Node list = fields.get("fallback");
  experiment.fallback_where = doc.where(list);
  if (!list.IsSequence() || list.size() == 0)
    doc.fail(list, fields.name("fallback") + ": expected a non-empty list of alternatives, each {accelerator: LABEL, "
                                             "provisioning: spot|flex-start|on-demand} or {accelerator: LABEL, "
                                             "reservation: NAME}, got " + (list.IsSequence() ? std::string("an empty list") : yamlfile::describe(list)));
  check_experiment_allows_fallback(fields, experiment, failover);
  std::vector<std::string> seen{describe(experiment.accelerators.front(), experiment.gpus, experiment.nodes,
                                         experiment.provisioning, experiment.reservation, failover)};
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string what = fields.name("fallback") + "[" + std::to_string(i) + "]";
    Alternative alternative = parse_alternative(doc, list[i], what, experiment, catalog, failover);
    const std::string name = describe(alternative.accelerator, alternative.gpus, alternative.nodes,
                                      alternative.provisioning, alternative.reservation, failover);
    if (std::find(seen.begin(), seen.end(), name) != seen.end())
      doc.fail(list[i], what + ": " + name + (name == seen.front() ? " is the experiment's own choice, tried first"
                                                                   : " is listed twice"));
    if (alternative.nodes > 1 && experiment.nodes == 1) check_multi_node_alternative(doc, list[i], what, experiment);
    seen.push_back(name);
    experiment.fallback.push_back(std::move(alternative));
  }
}

}  // namespace gkebuild::project::detail
