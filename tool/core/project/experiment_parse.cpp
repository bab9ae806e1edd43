// One entry of `experiments:` in gkebuild.yaml.
#include <algorithm>
#include <regex>

#include "base/printable.h"
#include "base/suggest.h"
#include "tool/core/project/project_keys.h"
#include "tool/core/project/parse_helpers.h"
#include "tool/core/project/quantities.h"
#include "tool/core/project/reserved_variables.h"
#include "tool/core/yamlfile/fields.h"
#include "tool/core/yamlfile/scalars.h"
#include "tool/core/yamlfile/to_json.h"

namespace gkebuild::project::detail {
namespace {

using yamlfile::Document;
using yamlfile::Fields;

std::vector<std::string> parse_accelerators(const Fields& fields, const catalog::Catalog& catalog) {
  const Document& doc = fields.document();
  const YAML::Node list = fields.required("accelerators");
  if (!list.IsSequence() || list.size() == 0)
    doc.fail(list, fields.name("accelerators") + ": expected a non-empty list of accelerator labels, got " +
                       yamlfile::describe(list));
  std::vector<std::string> labels;
  for (const auto& item : list) {
    const std::string label = yamlfile::as_string(doc, item, fields.name("accelerators") + " item");
    catalog.get(label, doc.where(item), doc.text());
    if (std::find(labels.begin(), labels.end(), label) != labels.end())
      doc.fail(item, fields.name("accelerators") + ": " + in_quotes(label) + " is listed twice");
    labels.push_back(label);
  }
  return labels;
}

void check_gpu_count(const Fields& fields, const Experiment& experiment, const catalog::Catalog& catalog) {
  for (const auto& label : experiment.accelerators) {
    int most = 0;
    for (const auto& machine : catalog.find(label)->machine_types) most = std::max(most, machine.gpus);
    if (experiment.gpus > most)
      fields.document().fail(fields.get("gpus"), fields.name("gpus") + ": " + std::to_string(experiment.gpus) +
                                                     " GPUs, but " + label + " machines have at most " +
                                                     std::to_string(most));
  }
}

std::vector<SweepAxis> parse_sweep(const Document& doc, const YAML::Node& node, const std::string& what) {
  std::vector<SweepAxis> axes;
  for (const auto& [key, value] : entries(doc, node, what)) {
    SweepAxis axis{key.Scalar(), {}, doc.where(key)};
    require_variable_name(doc, key, axis.name, what, true);
    if (!value.IsSequence() || value.size() == 0)
      doc.fail(value, what + "." + axis.name + ": expected a non-empty list of values, got " + yamlfile::describe(value));
    for (const auto& item : value) {
      if (!item.IsScalar()) doc.fail(item, what + "." + axis.name + ": values must be strings or numbers");
      axis.values.push_back(yamlfile::to_json(item));
    }
    axes.push_back(std::move(axis));
  }
  return axes;
}

}  // namespace

void require_variable_name(const Document& doc, const YAML::Node& at, const std::string& name, const std::string& what,
                           bool seed_allowed) {
  static const std::regex identifier("[A-Za-z_][A-Za-z0-9_]*");
  if (!std::regex_match(name, identifier))
    doc.fail(at, what + ": " + in_quotes(name) + " must be a template variable name (letters, digits, _)");
  if (is_reserved_variable(name) && !(seed_allowed && name == "seed"))
    doc.fail(at, what + ": " + in_quotes(name) + " is a reserved template variable");
}

namespace {

// The Job template sets these itself (the seed of an Indexed Job, the index of a sweep point,
// the checkpoint folder); a second entry with the same name would silently replace ours.
// PATH and LD_LIBRARY_PATH may be set: the driver's folders are appended to them.
// A multi-node Job sets the torchrun rendezvous variables (MASTER_PORT may be given).
void check_reserved_env(const Fields& fields, int nodes) {
  if (!fields.has("env") || !fields.get("env").IsMap()) return;
  static const std::vector<std::string> always{"GKEBUILD_SEED", "GKEBUILD_INDEX", "GKEBUILD_CHECKPOINT_DIR"};
  static const std::vector<std::string> multi_node{"MASTER_ADDR", "NNODES", "NODE_RANK", "GPUS_PER_NODE"};
  for (auto it = fields.get("env").begin(); it != fields.get("env").end(); ++it) {
    const std::string& name = it->first.Scalar();
    if (std::find(always.begin(), always.end(), name) != always.end())
      fields.document().fail(it->first, fields.name("env") + ": " + name +
                                            " is set by gkebuild (the seed, the sweep point's index, the checkpoint "
                                            "folder); use another name");
    if (nodes > 1 && std::find(multi_node.begin(), multi_node.end(), name) != multi_node.end())
      fields.document().fail(it->first, fields.name("env") + ": " + name +
                                            " is set by gkebuild in a multi-node Job (nodes > 1); only MASTER_PORT "
                                            "may be given");
  }
}

long long parse_duration_field(const Fields& fields, const std::string& key, long long fallback) {
  if (!fields.has(key)) return fallback;
  const YAML::Node node = fields.get(key);
  if (yamlfile::resolve_scalar(node) == yamlfile::ScalarKind::Integer)
    return yamlfile::as_integer(fields.document(), node, fields.name(key));
  auto seconds = parse_duration(yamlfile::as_string(fields.document(), node, fields.name(key)));
  if (!seconds || *seconds <= 0)
    fields.document().fail(node, fields.name(key) + ": expected seconds or a duration such as 90m or 2h30m");
  return *seconds;
}

std::string parse_quantity(const Fields& fields, const std::string& key) {
  if (!fields.has(key)) return "";
  const std::string text = yamlfile::as_scalar_text(fields.document(), fields.get(key), fields.name(key));
  if (!is_resource_quantity(text))
    fields.document().fail(fields.get(key), fields.name(key) + ": expected a Kubernetes quantity such as 4, 500m or 16Gi");
  return text;
}

void read_provisioning(const Fields& fields, Experiment& experiment) {
  const Document& doc = fields.document();
  const bool spot = fields.boolean("spot", false);
  if (fields.has("provisioning")) {
    experiment.provisioning = read_provisioning_word(fields);
    if (spot && experiment.provisioning != Provisioning::Spot)
      doc.fail(fields.get("spot"), fields.name("spot") + ": spot: true is provisioning: spot, but provisioning says " +
                                       to_string(experiment.provisioning));
  } else if (spot) {
    experiment.provisioning = Provisioning::Spot;
  }
  experiment.spot = experiment.provisioning == Provisioning::Spot;
  if (!fields.has("reservation")) return;
  const ReservationKey reservation = read_reservation(fields);
  experiment.reservation = reservation.name;
  experiment.reservation_zone = reservation.zone;
  experiment.reservation_where = reservation.where;
  if (experiment.provisioning != Provisioning::OnDemand)
    doc.fail(fields.get("reservation"), fields.name("reservation") + ": a reservation is consumed by on-demand "
                                                                       "nodes; drop provisioning: " +
                                            to_string(experiment.provisioning) + " or the reservation");
}

// A CPU-only experiment (no accelerators:, gpus: 0 or none) runs on plain VMs of machineType:.
// The GPU-obtaining keys (flex-start, queued, reservations, fallback) and multi-node Jobs are
// not offered for it yet, nor Kueue queues (gkebuild's ResourceFlavors are per accelerator, so
// no flavor would admit it); such a key on it is reported where it is.
void check_cpu_only(const Fields& fields, const Experiment& experiment) {
  const Document& doc = fields.document();
  const std::string why = ": a CPU-only experiment (no accelerators:, gpus: 0) runs on plain on-demand or spot VMs";
  if (experiment.provisioning != Provisioning::OnDemand && experiment.provisioning != Provisioning::Spot)
    doc.fail(fields.get("provisioning"), fields.name("provisioning") + why);
  for (const char* key : {"reservation", "fallback", "queue"})
    if (fields.has(key)) doc.fail(fields.get(key), fields.name(key) + why + " (not offered for it yet)");
  if (experiment.nodes > 1) doc.fail(fields.get("nodes"), fields.name("nodes") + why + "; multi-node is not offered for it yet");
}

// machineType: the VMs of a CPU-only experiment's pool (default e2-standard-4). GPU machine
// families (a2, a3, a4, g2) come from the catalog with accelerators:, not here.
void read_machine_type(const Fields& fields, Experiment& experiment) {
  const Document& doc = fields.document();
  if (!experiment.accelerators.empty()) {
    if (fields.has("machineType"))
      doc.fail(fields.get("machineType"), fields.name("machineType") + ": a GPU experiment's machine type comes from "
                                                                       "the catalog; machineType is for gpus: 0");
    return;
  }
  experiment.machine_type = fields.string("machineType", "e2-standard-4");
  static const std::regex machine("[a-z][a-z0-9]*-[a-z0-9]+(-[a-z0-9]+)*");
  static const std::regex gpu_family("(a2|a3|a4|g2)-.*");
  if (!std::regex_match(experiment.machine_type, machine))
    doc.fail(fields.get("machineType"), fields.name("machineType") + ": '" + printable(experiment.machine_type) +
                                            "' is not a Compute Engine machine type (e2-standard-4)");
  if (std::regex_match(experiment.machine_type, gpu_family))
    doc.fail(fields.get("machineType"), fields.name("machineType") + ": " + experiment.machine_type +
                                            " is a GPU machine type; list accelerators: instead");
}

// accelerators: with gpus (default 1) is a GPU experiment; neither, or gpus: 0, is CPU-only.
void read_gpus(const Fields& fields, Experiment& experiment, const catalog::Catalog& catalog) {
  const Document& doc = fields.document();
  if (!fields.has("accelerators")) {
    experiment.gpus = static_cast<int>(fields.integer("gpus", 0, 0));
    if (experiment.gpus > 0)
      doc.fail(fields.get("gpus"), fields.name("gpus") + ": " + std::to_string(experiment.gpus) +
                                       " GPUs need accelerators: (the GPU types to run on); gpus: 0 is CPU-only");
    return;
  }
  experiment.accelerators = parse_accelerators(fields, catalog);
  experiment.gpus = static_cast<int>(fields.integer("gpus", 1, 0));
  if (experiment.gpus == 0)
    doc.fail(fields.get("gpus"), fields.name("gpus") + ": gpus: 0 is a CPU-only experiment; drop accelerators: "
                                                       "(or ask for at least 1 GPU)");
  check_gpu_count(fields, experiment, catalog);
}

void parse_resources(const Fields& fields, Experiment& experiment, const catalog::Catalog& catalog) {
  read_gpus(fields, experiment, catalog);
  read_machine_type(fields, experiment);
  experiment.cpu = parse_quantity(fields, "cpu");
  experiment.memory = parse_quantity(fields, "memory");
  read_provisioning(fields, experiment);
  experiment.nodes = static_cast<int>(fields.integer("nodes", 1, 1));
  if (experiment.nodes > 1000) fields.document().fail(fields.get("nodes"), fields.name("nodes") + ": at most 1000");
  experiment.compact = fields.boolean("compact", false);
  if (experiment.compact) experiment.compact_where = fields.document().where(fields.get("compact"));
  // GKE finds flex-start VMs one at a time, as the autoscaler asks for them: the ranks of a
  // multi-node Job would start hours apart, the first ones holding paid GPUs at the rendezvous.
  // Queued provisioning obtains all of a Job's nodes at once (a ProvisioningRequest, via Kueue).
  if (experiment.nodes > 1 && experiment.provisioning == Provisioning::FlexStart)
    fields.document().fail(fields.get("provisioning"),
                           fields.name("provisioning") + ": flex-start VMs come one at a time, so the " +
                               std::to_string(experiment.nodes) + " nodes of this multi-node Job would start apart "
                               "and wait for each other on paid GPUs; use provisioning: queued (all nodes at once, "
                               "through a Kueue queue:)");
  experiment.shm_size = parse_quantity(fields, "shmSize");
  if (experiment.compact && experiment.nodes == 1)
    fields.document().fail(fields.get("compact"), fields.name("compact") + ": compact placement puts the nodes of a "
                                                                           "multi-node Job close together; give nodes > 1");
  if (experiment.cpu_only()) check_cpu_only(fields, experiment);
}

// A single-node Job's pod is recreated after a disruption already (its podFailurePolicy ignores
// DisruptionTarget), so restarts: is for the nodes of a multi-node Job, which restart together.
void read_restarts(const Fields& fields, Experiment& experiment) {
  experiment.restarts = static_cast<int>(fields.integer("restarts", experiment.nodes > 1 ? 3 : 0, 0));
  if (experiment.restarts > 100) fields.document().fail(fields.get("restarts"), fields.name("restarts") + ": at most 100");
  if (experiment.restarts > 0 && experiment.nodes == 1)
    fields.document().fail(fields.get("restarts"),
                           fields.name("restarts") + ": restarts every node of a multi-node Job (nodes > 1) after a "
                                                     "disruption; a single-node Job's pod is recreated after one already");
}

// Exit codes that restart rather than fail a multi-node Job (a program's own "retry me", as xpk
// keeps 42); the others stay user errors. A single-node Job retries any failure up to backoffLimit.
void read_retriable_exit_codes(const Fields& fields, Experiment& experiment) {
  if (!fields.has("retriableExitCodes")) return;
  const Document& doc = fields.document();
  const YAML::Node list = fields.get("retriableExitCodes");
  const std::string what = fields.name("retriableExitCodes");
  if (experiment.nodes == 1)
    doc.fail(list, what + ": for a multi-node Job (nodes > 1), whose other exit codes fail the run at once; a "
                          "single-node Job retries any failure up to backoffLimit");
  if (!list.IsSequence() || list.size() == 0)
    doc.fail(list, what + ": expected a non-empty list of exit codes (1-255), got " + yamlfile::describe(list));
  for (const auto& item : list) {
    const long long code = yamlfile::as_integer(doc, item, what + " item");
    if (code < 1 || code > 255) doc.fail(item, what + ": " + std::to_string(code) + " is not an exit code from 1 to 255");
    experiment.retriable_exit_codes.push_back(static_cast<int>(code));
  }
}

void parse_schedule(const Fields& fields, Experiment& experiment) {
  experiment.seeds = static_cast<int>(fields.integer("seeds", 0, 1));
  experiment.parallelism = static_cast<int>(fields.integer("parallelism", 0, 1));
  if (experiment.parallelism > 0 && experiment.seeds > 0)
    fields.document().fail(fields.get("parallelism"), fields.what() + ": give seeds (an Indexed Job per sweep point) or "
                                                                      "parallelism (an Indexed Job of the sweep points), not both");
  // A multi-node Job's completion index is its node rank: it cannot also be a seed or a point.
  for (const char* key : {"seeds", "parallelism"})
    if (experiment.nodes > 1 && fields.has(key))
      fields.document().fail(fields.get(key), fields.name(key) + ": a multi-node experiment (nodes > 1) runs one Job "
                                                                 "per sweep point; use sweep instead of " + key);
  if (experiment.seeds > 100000) fields.document().fail(fields.get("seeds"), fields.name("seeds") + ": at most 100000");
  experiment.timeout_seconds = parse_duration_field(fields, "timeout", experiment.timeout_seconds);
  experiment.ttl_seconds_after_finished =
      parse_duration_field(fields, "ttlAfterFinished", experiment.ttl_seconds_after_finished);
  experiment.backoff_limit = static_cast<int>(fields.integer("backoffLimit", experiment.backoff_limit, 0));
  read_restarts(fields, experiment);
  read_retriable_exit_codes(fields, experiment);
  experiment.storage = fields.boolean("storage", true);
  experiment.queue = fields.string("queue", "");
  if (!experiment.queue.empty() && !is_dns_label(experiment.queue, 63))
    fields.document().fail(fields.get("queue"), fields.name("queue") + ": '" + printable(experiment.queue) +
                                                    "' is not a LocalQueue name (lower-case letters, digits and '-')");
  // Queued nodes exist only through a ProvisioningRequest, which Kueue makes for admitted Jobs.
  if (experiment.provisioning == Provisioning::Queued && experiment.queue.empty())
    fields.document().fail(fields.get("provisioning"),
                           fields.name("provisioning") + ": queued provisioning needs a Kueue queue: add queue: (the "
                                                          "LocalQueue whose ClusterQueue has the provisioning admission "
                                                          "check; `gkebuild render kueue` makes one)");
}

}  // namespace

Provisioning read_provisioning_word(const Fields& fields) {
  const std::string text = fields.string("provisioning", "");
  const auto provisioning = parse_provisioning(text);
  const std::vector<std::string> choices{"on-demand", "spot", "flex-start", "queued"};
  if (!provisioning)
    fields.document().fail(fields.get("provisioning"), fields.name("provisioning") +
                                                           ": expected on-demand, spot, flex-start or queued, got '" +
                                                           printable(text) + "'" + did_you_mean(text, choices));
  return *provisioning;
}

ReservationKey read_reservation(const Fields& fields) {
  const Document& doc = fields.document();
  const YAML::Node node = fields.get("reservation");
  ReservationKey key;
  key.where = doc.where(node);
  if (node.IsMap()) {
    Fields parts(doc, node, fields.name("reservation"), {"name", "zone"});
    key.name = parts.required_string("name");
    key.zone = parts.string("zone", "");
    static const std::regex zone("[a-z]+-[a-z]+[0-9]+-[a-z]");
    if (parts.has("zone") && !std::regex_match(key.zone, zone))
      doc.fail(parts.get("zone"), parts.name("zone") + ": '" + printable(key.zone) + "' is not a zone (us-central1-a)");
    if (!is_reservation(key.name))
      doc.fail(parts.get("name"), parts.name("name") + ": '" + printable(key.name) +
                                      "' is neither a reservation name nor projects/PROJECT/reservations/NAME");
    return key;
  }
  key.name = fields.string("reservation", "");
  if (!is_reservation(key.name))
    doc.fail(node, fields.name("reservation") + ": '" + printable(key.name) +
                       "' is neither a reservation name nor projects/PROJECT/reservations/NAME, nor {name: NAME, zone: ZONE}");
  return key;
}

bool is_reservation(const std::string& text) {
  static const std::regex pattern("([a-z]([-a-z0-9]{0,61}[a-z0-9])?)|(projects/[a-z][-a-z0-9]{4,28}[a-z0-9]/reservations/"
                                  "[a-z]([-a-z0-9]{0,61}[a-z0-9])?)");
  return std::regex_match(text, pattern);
}

Experiment parse_experiment(const Document& doc, const YAML::Node& key, const YAML::Node& value,
                            const std::vector<std::string>& image_names, const catalog::Catalog& catalog,
                            Failover failover) {
  Experiment experiment;
  experiment.name = key.Scalar();
  experiment.where = doc.where(key);
  require_dns_label(doc, key, experiment.name, "experiment name");
  const std::string what = "experiment '" + experiment.name + "'";
  check_keys(kExperimentKeys, doc, value, what);
  Fields fields(doc, value, what, key_names(kExperimentKeys));
  if (!value.IsMap()) doc.fail(value.IsNull() ? key : value, fields.what() + ": expected a mapping");
  experiment.image = fields.required_string("image");
  if (std::find(image_names.begin(), image_names.end(), experiment.image) == image_names.end())
    doc.fail(fields.get("image"), fields.name("image") + ": no image '" + printable(experiment.image) + "' under images:" +
                                      did_you_mean(experiment.image, image_names));
  experiment.command = fields.strings("command");
  experiment.args = fields.strings("args");
  experiment.env = parse_string_map(doc, fields.get("env"), fields.name("env"));
  parse_experiment_secrets(fields, experiment);
  parse_resources(fields, experiment, catalog);
  check_reserved_env(fields, experiment.nodes);
  experiment.sweep = parse_sweep(doc, fields.get("sweep"), fields.name("sweep"));
  if (fields.has("search")) experiment.search = parse_search(fields, experiment.sweep);
  if (fields.has("budget")) experiment.budget = parse_budget(fields);
  parse_schedule(fields, experiment);
  bool sweeps_seed = std::any_of(experiment.sweep.begin(), experiment.sweep.end(),
                                 [](const SweepAxis& axis) { return axis.name == "seed"; });
  if (sweeps_seed && experiment.seeds > 0)
    doc.fail(fields.get("seeds"), fields.what() + ": give seeds (one Indexed Job) or sweep.seed (one Job per seed), not both");
  if (fields.has("fallback")) parse_fallback(fields, experiment, catalog, failover);
  experiment.pending_timeout_seconds = parse_duration_field(fields, "pendingTimeout", experiment.pending_timeout_seconds);
  if (fields.has("earlyStopping")) parse_early_stopping(fields, experiment);
  if (fields.has("pendingTimeout") && experiment.fallback.empty())
    doc.fail(fields.get("pendingTimeout"), fields.name("pendingTimeout") + ": how long a point may wait for nodes before "
                                                                          "its next alternative; give a fallback: list");
  return experiment;
}

}  // namespace gkebuild::project::detail
