#include "tool/core/catalog/node_price.h"

namespace gkebuild::catalog {
namespace {

const char* const kNoDws =
    "no DWS (flex-start) price: Google publishes none per GPU or machine type, only \"discounted\" (up to 53%)";

// The GPUs `machine_type` carries, from the accelerator's machine types; 0 when not listed.
int gpus_on(const Accelerator& accelerator, std::string_view machine_type) {
  for (const auto& machine : accelerator.machine_types)
    if (machine.name == machine_type) return machine.gpus;
  return 0;
}

// Why `machine_type` has no row for `region`: the regions it is priced in, and its note.
std::string no_machine_price(const Catalog& catalog, std::string_view machine_type, std::string_view region) {
  std::string why = "no catalog price for machine type " + std::string(machine_type);
  const auto regions = catalog.machine_regions(machine_type);
  if (regions.empty()) return why;
  std::string listed;
  for (const auto& name : regions) listed += (listed.empty() ? "" : ", ") + name;
  why += " in " + std::string(region) + " (priced in " + listed;
  for (const auto& machine : catalog.machine_prices())
    if (machine.name == machine_type && !machine.note.empty()) return why + "; " + machine.note + ")";
  return why + ")";
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
  if (!machine) return {std::nullopt, no_machine_price(catalog, machine_type, region)};
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
  rate.region = std::string(region);
  rate.vm_usd_per_hour = *vm;
  rate.dates.insert(machine->date);
  if (accelerator) {
    rate.gpus = gpus_on(*accelerator, machine_type);
    if (rate.gpus == 0)
      return {std::nullopt, std::string(machine_type) + " is not a machine type of " + accelerator->label};
    std::string why;
    const auto gpu = accelerator->price_in(provisioning, region, why);
    if (!gpu) return {std::nullopt, why};
    rate.gpu_usd_per_hour = gpu->usd_per_gpu_hour;
    rate.dates.insert(gpu->date);
  }
  rate.usd_per_hour = rate.vm_usd_per_hour + rate.gpus * rate.gpu_usd_per_hour;
  return {rate, ""};
}

std::string counted_text(std::string_view region, std::string_view dates) {
  return "counts list prices in " + std::string(region) + " (catalog of " + std::string(dates) +
         ") of whole nodes: vCPUs, memory and every GPU the machine type carries, at the provisioning "
         "used; not disks, network, committed-use or sustained-use discounts";
}

}  // namespace gkebuild::catalog
