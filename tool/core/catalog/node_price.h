// The hourly price of one whole node: the machine type's vCPUs and memory (machines.yaml) plus
// every GPU the machine type carries (accelerators.yaml), at the rate of the provisioning the
// node was bought with. GKE bills the node, not the pod: a pod that takes 3 of an
// a2-highgpu-4g's 4 GPUs costs the whole a2-highgpu-4g.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "tool/core/catalog/catalog.h"

namespace gkebuild::catalog {

struct NodeRate {
  double usd_per_hour = 0;      // the whole node
  double vm_usd_per_hour = 0;   // its vCPUs and memory
  double gpu_usd_per_hour = 0;  // one of its GPUs (0 for a CPU machine)
  int gpus = 0;                 // GPUs the machine type carries
  std::string billed_as;        // "on-demand", "spot" or "flex-start": the rate used
  std::string region;           // the region whose prices were used
  std::set<std::string> dates;  // when the figures were read
};

struct NodePricing {
  std::optional<NodeRate> rate;
  std::string missing;  // why there is no rate: "no DWS (flex-start) price: …", "… in us-south1 (priced in …)"
};

// The rate a provisioning word is billed at: spot; flex-start and queued (Dynamic Workload
// Scheduler prices); on-demand, reservation (a reservation's VMs are billed at on-demand rates,
// used or not) and "" (older records).
std::string_view billed_as(std::string_view provisioning);

// One node of `machine_type` in `region`; `accelerator` nullptr for a CPU machine. No rate
// when the catalog lacks the machine type or the accelerator's price in that region (never
// another region's figure), or a DWS price; `missing` then says which, and where it is priced.
NodePricing node_rate(const Catalog& catalog, std::string_view machine_type, const Accelerator* accelerator,
                      std::string_view provisioning, std::string_view region = Catalog::price_region);

// What a cost counts and what it does not, in one clause, for the cost summary and the report:
// "counts list prices in REGION (catalog of DATES) of whole nodes: vCPUs, memory and every GPU…;
// not disks, network, committed-use or sustained-use discounts".
std::string counted_text(std::string_view region, std::string_view dates);

}  // namespace gkebuild::catalog
