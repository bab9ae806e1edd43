#include "tool/core/catalog/node_price.h"

namespace gkebuild::catalog {
namespace {

const char* const kNoDws = "no DWS (flex-start) price in the catalog";

// The GPUs `machine_type` carries, from the accelerator's machine types; 0 when not listed.
int gpus_on(const Accelerator& accelerator, std::string_view machine_type) {
  for (const auto& machine : accelerator.machine_types)
    if (machine.name == machine_type) return machine.gpus;
  return 0;
}

}  // namespace

std::string_view billed_as(std::string_view provisioning) {
  if (provisioning == "spot") return "spot";
  if (provisioning == "flex-start" || provisioning == "queued") return "flex-start";
  return "on-demand";
}

NodePricing node_rate(const Catalog& catalog, std::string_view machine_type, const Accelerator* accelerator,
                      std::string_view provisioning, std::string_view region) {
  const std::string billed(billed_as(provisioning));
  const MachinePrice* machine = catalog.machine_price(machine_type, region);
  if (!machine) return {std::nullopt, "no catalog price for machine type " + std::string(machine_type)};
  const std::optional<double> vm = billed == "spot"         ? machine->spot
                                   : billed == "flex-start" ? machine->flex_start
                                                            : machine->on_demand;
  // The built-in catalog has no DWS figure (machines.yaml says why): never an on-demand stand-in.
  if (billed == "flex-start" && (!vm || (accelerator && !accelerator->flex_start))) return {std::nullopt, kNoDws};
  if (!vm)
    return {std::nullopt, "no " + billed + " price for machine type " + std::string(machine_type) +
                              (machine->note.empty() ? "" : " (" + machine->note + ")")};
  NodeRate rate;
  rate.billed_as = billed;
  rate.vm_usd_per_hour = *vm;
  rate.dates.insert(machine->date);
  if (accelerator) {
    rate.gpus = gpus_on(*accelerator, machine_type);
    if (rate.gpus == 0)
      return {std::nullopt, std::string(machine_type) + " is not a machine type of " + accelerator->label};
    const auto& gpu = accelerator->price_for(provisioning);
    if (!gpu) return {std::nullopt, "no " + billed + " price for " + accelerator->label};
    rate.gpu_usd_per_hour = gpu->usd_per_gpu_hour;
    rate.dates.insert(gpu->date);
  }
  rate.usd_per_hour = rate.vm_usd_per_hour + rate.gpus * rate.gpu_usd_per_hour;
  return {rate, ""};
}

}  // namespace gkebuild::catalog
