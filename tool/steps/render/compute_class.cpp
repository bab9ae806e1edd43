#include "tool/steps/render/compute_class.h"

#include "tool/steps/render/contexts.h"
#include "tool/steps/render/names.h"

namespace gkebuild::render {
namespace {

using json = nlohmann::ordered_json;

// The GPUs per node of the catalog's smallest machine of `label` that holds `gpus` (the parser
// checked that one does): the count a ComputeClass rule asks GKE for.
int gpus_per_node(const catalog::Catalog& catalog, const std::string& label, int gpus) {
  for (const auto& machine : catalog.get(label).machine_types)
    if (machine.gpus >= gpus) return machine.gpus;
  return gpus;
}

json rule_json(const catalog::Catalog& catalog, const std::string& label, int gpus,
               project::Provisioning provisioning, const std::string& reservation) {
  json rule = json::object();
  rule["gpu"] = {{"type", label}, {"count", gpus_per_node(catalog, label, gpus)}};
  rule["spot"] = provisioning == project::Provisioning::Spot;
  rule["flex_start"] = provisioning == project::Provisioning::FlexStart;
  rule["reservation"] = reservation_json(reservation);
  return rule;
}

}  // namespace

std::string compute_class_name(const project::Project& project, const project::Experiment& experiment) {
  std::string name = kube_name({project.name, experiment.name}, 63);
  if (name.starts_with("gke") || name.starts_with("autopilot")) name = kube_name({"cc", project.name, experiment.name}, 63);
  return name;
}

json fallback_json(const project::Experiment& experiment) {
  if (experiment.fallback.empty()) return nullptr;
  bool spot = experiment.provisioning == project::Provisioning::Spot;
  bool flex = experiment.provisioning == project::Provisioning::FlexStart;
  for (const auto& alternative : experiment.fallback) {
    spot = spot || alternative.provisioning == project::Provisioning::Spot;
    flex = flex || alternative.provisioning == project::Provisioning::FlexStart;
  }
  return {{"spot", spot}, {"flex_start", flex}, {"pending_timeout_seconds", experiment.pending_timeout_seconds}};
}

json compute_class_context(const project::Project& project, const json& values, const catalog::Catalog& catalog) {
  json classes = json::array();
  for (const auto& experiment : project.experiments) {
    if (!project::uses_compute_class(project, experiment)) continue;
    json priorities = json::array();
    priorities.push_back(rule_json(catalog, experiment.accelerators.front(), experiment.gpus, experiment.provisioning,
                                   experiment.reservation));
    for (const auto& alternative : experiment.fallback)
      priorities.push_back(
          rule_json(catalog, alternative.accelerator, alternative.gpus, alternative.provisioning, alternative.reservation));
    classes.push_back({{"name", compute_class_name(project, experiment)},
                       {"experiment", experiment.name},
                       {"priorities", std::move(priorities)}});
  }
  return {{"project", project.name}, {"classes", std::move(classes)}, {"values", values}};
}

}  // namespace gkebuild::render
