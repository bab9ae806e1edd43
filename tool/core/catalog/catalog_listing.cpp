#include "tool/core/catalog/catalog_listing.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "base/text_table.h"

namespace gkebuild::catalog {
namespace {

using Row = std::vector<std::string>;

std::string number(double value, const char* format) {
  char text[32];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

std::string price_cell(const std::optional<Price>& price) {
  return price ? number(price->usd_per_gpu_hour, "%.4g") : "-";
}

// The date the prices were read; both when on-demand and spot were read on different days.
std::string price_date(const Accelerator& accelerator) {
  const auto& on_demand = accelerator.on_demand;
  const auto& spot = accelerator.spot;
  if (on_demand && spot && on_demand->date != spot->date) return on_demand->date + "/" + spot->date;
  if (on_demand) return on_demand->date;
  return spot ? spot->date : "-";
}

std::string joined(const std::vector<std::string>& parts, const char* separator) {
  std::string text;
  for (const auto& part : parts) text += (text.empty() ? "" : separator) + part;
  return text.empty() ? "-" : text;
}

Row row_of(const Accelerator& accelerator) {
  std::vector<std::string> machines;
  for (const auto& machine : accelerator.machine_types)
    machines.push_back(machine.name + ":" + std::to_string(machine.gpus));
  return {accelerator.label,
          accelerator.gpu,
          number(accelerator.memory_gib, "%g") + " GiB",
          accelerator.compute_capability(),
          joined(accelerator.mig_profiles, ","),
          price_cell(accelerator.on_demand),
          price_cell(accelerator.spot),
          price_date(accelerator),
          joined(machines, " ")};
}

nlohmann::ordered_json price_json(const std::optional<Price>& price) {
  if (!price) return nullptr;
  return {{"usdPerGpuHour", price->usd_per_gpu_hour}, {"source", price->source}, {"date", price->date}};
}

}  // namespace

void print_catalog_table(const Catalog& catalog, std::ostream& out) {
  std::vector<Row> rows{{"NAME", "GPU", "MEMORY", "CC", "MIG PROFILES", "ON-DEMAND $/GPU-H", "SPOT $/GPU-H",
                         "PRICES AS OF", "MACHINE TYPE:GPUS PER NODE"}};
  for (const auto& accelerator : catalog.accelerators()) rows.push_back(row_of(accelerator));
  print_text_table(rows, out);
  out << "\nPrices: USD per GPU-hour in us-central1 (catalog of " << catalog.date()
      << "); `-o json` gives each price's source, the other regions' (prices.regions) and machinePrices,\n"
      << "the vCPU and memory part of each machine type per region (a node costs that plus its GPUs).\n"
      << "Live prices: the Cloud Billing Catalog API.\n";
}

nlohmann::ordered_json catalog_to_json(const Catalog& catalog) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& accelerator : catalog.accelerators()) {
    nlohmann::ordered_json machines = nlohmann::ordered_json::array();
    for (const auto& machine : accelerator.machine_types)
      machines.push_back(
          {{"name", machine.name}, {"gpus", machine.gpus}, {"vcpus", machine.vcpus}, {"memoryGB", machine.memory_gb}});
    nlohmann::ordered_json prices{{"onDemand", price_json(accelerator.on_demand)}, {"spot", price_json(accelerator.spot)}};
    if (!accelerator.price_note.empty()) prices["note"] = accelerator.price_note;
    if (!accelerator.region_prices.empty()) {
      nlohmann::ordered_json rows = nlohmann::ordered_json::object();
      for (const auto& row : accelerator.region_prices) rows[row.region] = {row.on_demand, row.spot};
      prices["regions"] = {{"source", accelerator.region_source}, {"date", accelerator.region_date},
                           {"usdPerGpuHour", std::move(rows)}};
      if (!accelerator.region_note.empty()) prices["regions"]["note"] = accelerator.region_note;
    }
    list.push_back({{"label", accelerator.label},
                    {"shortName", accelerator.short_name},
                    {"gpu", accelerator.gpu},
                    {"memoryGiB", accelerator.memory_gib},
                    {"computeCapability", accelerator.compute_capability()},
                    {"cudaArch", accelerator.cuda_arch},
                    {"machineTypes", std::move(machines)},
                    {"migProfiles", accelerator.mig_profiles},
                    {"prices", std::move(prices)}});
  }
  // The vCPU and memory part of each machine type (a node's price adds its GPUs).
  nlohmann::ordered_json machine_prices = nlohmann::ordered_json::array();
  for (const auto& machine : catalog.machine_prices()) {
    nlohmann::ordered_json row{{"name", machine.name},   {"region", machine.region},
                               {"vcpus", machine.vcpus}, {"memoryGiB", machine.memory_gib},
                               {"onDemand", nullptr},    {"spot", nullptr},
                               {"source", machine.source}, {"date", machine.date}};
    if (machine.on_demand) row["onDemand"] = *machine.on_demand;
    if (machine.spot) row["spot"] = *machine.spot;
    if (!machine.note.empty()) row["note"] = machine.note;
    machine_prices.push_back(std::move(row));
  }
  return {{"catalogDate", catalog.date()}, {"accelerators", std::move(list)}, {"machinePrices", std::move(machine_prices)}};
}

}  // namespace gkebuild::catalog
