// `kueue:` in gkebuild.yaml, and how an experiment's `queue:` must fit it.
#include <algorithm>

#include "base/printable.h"
#include "tool/core/project/parse_helpers.h"
#include "tool/core/project/quantities.h"
#include "tool/core/yamlfile/fields.h"
#include "tool/core/yamlfile/scalars.h"

namespace gkebuild::project::detail {
namespace {

using yamlfile::Document;
using yamlfile::Fields;

std::string name_field(const Fields& fields, const std::string& key, const std::string& fallback) {
  const std::string name = fields.string(key, fallback);
  if (!is_dns_label(name, 63))
    fields.document().fail(fields.has(key) ? fields.get(key) : fields.node(), fields.name(key) + ": '" +
                                                                                  printable(name) +
                                                                                  "' is not a valid object name");
  return name;
}

std::string quota_field(const Fields& fields, const std::string& key) {
  if (!fields.has(key)) return "";
  const std::string text = yamlfile::as_scalar_text(fields.document(), fields.get(key), fields.name(key));
  if (!is_resource_quantity(text))
    fields.document().fail(fields.get(key), fields.name(key) + ": expected a Kubernetes quantity such as 32 or 128Gi");
  return text;
}

}  // namespace

Kueue parse_kueue(const Document& doc, const YAML::Node& node, const std::string& project_name,
                  const catalog::Catalog& catalog) {
  Fields fields(doc, node, "kueue", {"queue", "clusterQueue", "gpus", "cpu", "memory"});
  if (!node.IsMap()) doc.fail(node, "kueue: expected a mapping with queue and gpus");
  Kueue kueue;
  kueue.where = doc.where(node);
  kueue.queue = name_field(fields, "queue", project_name);
  kueue.cluster_queue = name_field(fields, "clusterQueue", project_name);
  const YAML::Node gpus = fields.required("gpus");
  if (!gpus.IsMap() || gpus.size() == 0)
    doc.fail(gpus, "kueue.gpus: expected the GPUs each accelerator may use at once, e.g. {nvidia-l4: 4}");
  for (const auto& [key, value] : entries(doc, gpus, "kueue.gpus")) {
    catalog.get(key.Scalar(), doc.where(key), doc.text());
    const long long quota = yamlfile::as_integer(doc, value, "kueue.gpus." + key.Scalar());
    if (quota < 0 || quota > 1000000) doc.fail(value, "kueue.gpus." + key.Scalar() + ": expected 0 to 1000000 GPUs");
    kueue.gpus.emplace_back(key.Scalar(), static_cast<int>(quota));
  }
  // cpu and memory are always covered: a pod's requests defaulted by a LimitRange or by
  // Autopilot would otherwise find no quota, and Kueue would never admit its Job. Unless given,
  // the quotas are as large as Google's DWS sample makes them: the GPU quota is the limit.
  kueue.cpu = quota_field(fields, "cpu");
  if (kueue.cpu.empty()) kueue.cpu = kUnboundedCpu;
  kueue.memory = quota_field(fields, "memory");
  if (kueue.memory.empty()) kueue.memory = kUnboundedMemory;
  return kueue;
}

void check_queue_fits(const Document& doc, const YAML::Node& experiment_node, const Experiment& experiment,
                      const Kueue& kueue) {
  const YAML::Node at = experiment_node["queue"];
  const std::string what = "experiment '" + experiment.name + "'";
  const bool queued = experiment.provisioning == Provisioning::Queued;
  if (queued && experiment.queue == kueue.queue)
    doc.fail(at, what + ": queued provisioning goes through queue '" + kueue.queued_queue() +
                     "' (its ClusterQueue has the ProvisioningRequest admission check), not '" + kueue.queue + "'");
  if (!queued && experiment.queue == kueue.queued_queue())
    doc.fail(at, what + ": queue '" + experiment.queue + "' is for provisioning: queued; use '" + kueue.queue + "'");
  if (experiment.queue != kueue.queue && experiment.queue != kueue.queued_queue())
    return;  // another queue on the cluster: nothing known about it here
  if (queued && kueue.queued_queue().size() > 63)
    doc.fail(at, what + ": kueue.queue '" + kueue.queue + "' is too long for its queued twin '" + kueue.queued_queue() +
                     "' (at most 56 characters)");
  // Kueue admits a Job's pods all at once: min(parallelism, completions) of them.
  const int pods = std::max({1, experiment.seeds, experiment.parallelism, experiment.nodes});
  for (const auto& label : experiment.accelerators)
    if (kueue.gpu_quota(label) < experiment.gpus * pods)
      doc.fail(at, what + ": queue '" + experiment.queue + "' has " + std::to_string(kueue.gpu_quota(label)) + " " + label +
                       " GPUs (kueue.gpus), one of the experiment's Jobs needs " +
                       std::to_string(experiment.gpus * pods) + ": Kueue would never admit it");
}

}  // namespace gkebuild::project::detail
