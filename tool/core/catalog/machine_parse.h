// Machine prices in machines.yaml's format (source, date, region, machines), wherever they sit:
// machines.yaml's root, or a catalog file's machinePrices: section.
#pragma once

#include <string>
#include <vector>

#include "tool/core/catalog/catalog.h"
#include "tool/core/yamlfile/document.h"

namespace gkebuild::catalog {

std::vector<MachinePrice> parse_machine_prices(const yamlfile::Document& doc, const YAML::Node& node,
                                               const std::string& what);

}  // namespace gkebuild::catalog
