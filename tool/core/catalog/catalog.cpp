#include "tool/core/catalog/catalog.h"

#include <algorithm>

#include "base/suggest.h"

namespace gkebuild::catalog {

namespace {
std::string region_of(const std::string& zone) { return zone.substr(0, zone.rfind('-')); }
}  // namespace

bool Zones::lacks(const std::string& zone) const {
  const std::string region = region_of(zone);
  return std::find(regions.begin(), regions.end(), region) != regions.end() &&
         std::find(list.begin(), list.end(), zone) == list.end();
}

std::vector<std::string> Zones::in_region(const std::string& region) const {
  std::vector<std::string> out;
  for (const auto& zone : list)
    if (region_of(zone) == region) out.push_back(zone);
  return out;
}

std::string Accelerator::compute_capability() const {
  return std::to_string(compute_major) + "." + std::to_string(compute_minor);
}

// Catalog::builtin() is generated from accelerators.yaml at build time (catalog_table.cpp).

const Accelerator* Catalog::find(std::string_view label) const {
  for (const auto& accelerator : accelerators_)
    if (accelerator.label == label) return &accelerator;
  return nullptr;
}

namespace {

// "nvidia-tesla-l4" -> "l4": the GPU part of a label, for suggestions. Labels are never
// built this way (see accelerators.yaml); this only recognises what a user meant.
std::string_view gpu_part(std::string_view label) {
  for (std::string_view prefix : {"nvidia-", "tesla-"})
    if (label.substr(0, prefix.size()) == prefix) label.remove_prefix(prefix.size());
  return label;
}

}  // namespace

std::string Catalog::suggestion(std::string_view label) const {
  for (const auto& accelerator : accelerators_)
    if (gpu_part(accelerator.label) == gpu_part(label) || accelerator.short_name == gpu_part(label))
      return " (did you mean '" + accelerator.label + "'?)";
  return did_you_mean(label, labels());
}

const Accelerator& Catalog::get(std::string_view label, const SourceLocation& where,
                                std::string_view source) const {
  if (const Accelerator* found = find(label)) return *found;
  std::string message = "unknown accelerator '" + std::string(label) + "'" + suggestion(label);
  if (suggestion(label).empty())
    message += "; known accelerators: " + [this] {
      std::string all;
      for (const auto& name : labels()) all += (all.empty() ? "" : ", ") + name;
      return all;
    }();
  throw SourceError(where, message, source);
}

const MachinePrice* Catalog::machine_price(std::string_view machine_type, std::string_view region) const {
  const MachinePrice* every_region = nullptr;  // a note-only row ("no figure read") holds everywhere
  for (const auto& machine : machines_) {
    if (machine.name != machine_type) continue;
    if (machine.region == region) return &machine;
    if (machine.region.empty()) every_region = &machine;
  }
  return every_region;
}

std::optional<Price> Accelerator::price_in(std::string_view provisioning, std::string_view region,
                                          std::string& why) const {
  if (provisioning == "flex-start" || provisioning == "queued") {
    // No per-region DWS figures: a flexStart price, where one is given, holds everywhere.
    if (!flex_start) why = "no DWS (flex-start) price for " + label + " in the catalog";
    return flex_start;
  }
  const bool spot_run = provisioning == "spot";
  if (!region_prices.empty()) {
    std::string listed;
    for (const auto& row : region_prices) {
      if (row.region == region) return Price{spot_run ? row.spot : row.on_demand, region_source, region_date};
      listed += (listed.empty() ? "" : ", ") + row.region;
    }
    why = "no catalog price for " + label + " in " + std::string(region) + " (priced in " + listed + ")";
    return std::nullopt;
  }
  const auto& price = spot_run ? spot : on_demand;
  if (price && region == Catalog::price_region) return price;
  why = price ? "the catalog prices " + label + " in " + std::string(Catalog::price_region) + " only"
              : "no " + std::string(spot_run ? "spot" : "on-demand") + " price for " + label + " in the catalog";
  if (!price_note.empty()) why += " (" + price_note + ")";
  return std::nullopt;
}

std::vector<std::string> Catalog::machine_regions(std::string_view machine_type) const {
  std::vector<std::string> regions;
  for (const auto& machine : machines_)
    if (machine.name == machine_type && !machine.region.empty() && machine.on_demand) regions.push_back(machine.region);
  return regions;
}

Catalog Catalog::with_machines(std::vector<MachinePrice> machines) const {
  return Catalog(accelerators_, date_, std::move(machines));
}

std::vector<std::string> Catalog::labels() const {
  std::vector<std::string> out;
  for (const auto& accelerator : accelerators_) out.push_back(accelerator.label);
  return out;
}

}  // namespace gkebuild::catalog
