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
  for (const auto& machine : machines_)
    if (machine.name == machine_type && machine.region == region) return &machine;
  return nullptr;
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
