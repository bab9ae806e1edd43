// Machine prices in machines.yaml's format (source, date, region, machines), wherever they sit:
// machines.yaml's root, or a catalog file's machinePrices: section.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "tool/core/catalog/catalog.h"
#include "tool/core/yamlfile/document.h"

namespace gkebuild::catalog {

// One region's [onDemand, spot] pair of a `prices:` map (machines.yaml) or of an accelerator's
// prices.regions.usdPerGpuHour; both must be positive numbers.
std::pair<double, double> region_pair(const yamlfile::Document& doc, const YAML::Node& node, const std::string& what);

std::vector<MachinePrice> parse_machine_prices(const yamlfile::Document& doc, const YAML::Node& node,
                                               const std::string& what);

}  // namespace gkebuild::catalog
