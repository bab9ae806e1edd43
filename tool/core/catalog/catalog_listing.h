// `gkebuild accelerators`: the catalog as a table for people and as JSON for scripts.
#pragma once

#include <ostream>

#include <nlohmann/json.hpp>

#include "tool/core/catalog/catalog.h"

namespace gkebuild::catalog {

// One row per accelerator: name, GPU, memory, compute capability, MIG profiles, on-demand and
// spot USD per GPU-hour with the date they were read, and machine types with their GPUs per node.
void print_catalog_table(const Catalog& catalog, std::ostream& out);

// The catalog as data: {"catalogDate", "accelerators": [{label, gpu, memoryGiB, …, prices}]},
// the key names of accelerators.yaml.
nlohmann::ordered_json catalog_to_json(const Catalog& catalog);

}  // namespace gkebuild::catalog
