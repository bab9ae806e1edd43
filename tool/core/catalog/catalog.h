// The GKE GPU accelerator catalog (accelerators.yaml, compiled in): node labels, CUDA
// architectures, machine types, prices and peak throughput. Render, image and report
// all read it, so there is one place to update.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/source_error.h"

namespace gkebuild::catalog {

struct MachineType {
  std::string name;      // GCE machine type, e.g. "g2-standard-4"
  int gpus = 0;          // GPUs on one machine of this type
  int vcpus = 0;
  double memory_gb = 0;  // host memory
};

// The vCPU and memory part of a GCE machine type in one region, USD per hour (machines.yaml):
// for an accelerator-optimised type (a2, a3, g2) the VM without its GPUs, which the
// accelerator's Price adds per GPU; for n1 + T4/V100 the n1 VM alone.
struct MachinePrice {
  std::string name;    // "g2-standard-4"
  std::string region;  // "us-central1"
  int vcpus = 0;
  double memory_gib = 0;
  std::optional<double> on_demand, spot;  // nullopt: no figure read (`note` says why)
  std::optional<double> flex_start;       // DWS; none in the built-in catalog (none published)
  std::string source;
  std::string date;  // YYYY-MM-DD, when read
  std::string note;
};

struct Price {
  double usd_per_gpu_hour = 0;
  std::string source;    // where the figure was read
  std::string date;      // when (YYYY-MM-DD)
};

// One region's per-GPU prices (accelerators.yaml prices.regions.usdPerGpuHour).
struct RegionPrice {
  std::string region;  // "europe-west4"
  double on_demand = 0;
  double spot = 0;
};

// The zones that offer a GPU, as far as the catalog's source knows.
struct Zones {
  std::vector<std::string> list;     // "us-central1-a", …
  std::vector<std::string> regions;  // regions whose zones `list` covers completely
  std::string source;
  std::string date;                  // when the source was read (YYYY-MM or YYYY-MM-DD)
  std::string note;                  // why there is no list, when there is none

  // Whether `zone` is known to lack the GPU: its region is covered and the zone is not listed.
  bool lacks(const std::string& zone) const;
  // The listed zones of `region`.
  std::vector<std::string> in_region(const std::string& region) const;
};

struct Accelerator {
  std::string label;       // cloud.google.com/gke-accelerator value
  std::string short_name;  // for object and file names: "t4", "a100-80gb"
  std::string gpu;         // product name
  std::string cuda_arch;   // "sm_75"
  int compute_major = 0;
  int compute_minor = 0;
  double memory_gib = 0;
  std::vector<MachineType> machine_types;
  std::vector<std::string> mig_profiles;
  std::optional<Price> on_demand;
  std::optional<Price> spot;
  // Dynamic Workload Scheduler (flex-start, and queued provisioning, which is flex-start)
  // prices; none is set where no per-GPU figure was read (GKE's flex-start page gives only
  // "discounts up to 53%"): such runs are then unpriced, never priced at on-demand rates.
  std::optional<Price> flex_start;
  std::string price_note;  // why a price is missing, when one is
  // Per-region figures (prices.regions): where given, they price the GPU in each listed region,
  // us-central1 included, and a region not listed has no price. Without them only `on_demand`
  // and `spot` are known, for Catalog::price_region.
  std::vector<RegionPrice> region_prices;
  std::string region_source, region_date, region_note;
  std::map<std::string, double> peak_tflops;  // "fp32", "tf32", "fp16", "bf16"…, dense
  std::string peak_source;
  std::string notes;
  Zones zones;

  // "7.5"
  std::string compute_capability() const;
  // The price per GPU-hour for a spot or on-demand run, if the catalog has one.
  const std::optional<Price>& price(bool spot_run) const { return spot_run ? spot : on_demand; }
  // The same for a provisioning word of the project file: "on-demand" (a reservation's runs
  // too), "spot", "flex-start" or "queued" (both billed at DWS prices).
  const std::optional<Price>& price_for(std::string_view provisioning) const {
    if (provisioning == "spot") return spot;
    if (provisioning == "flex-start" || provisioning == "queued") return flex_start;
    return on_demand;
  }
  // The price per GPU-hour in `region` at the rate of `provisioning` (as price_for); nullopt
  // with `why` when the catalog has none there: never another region's figure.
  std::optional<Price> price_in(std::string_view provisioning, std::string_view region, std::string& why) const;
};

class Catalog {
 public:
  Catalog() = default;
  Catalog(std::vector<Accelerator> accelerators, std::string date,
          std::vector<MachinePrice> machines = {})
      : accelerators_(std::move(accelerators)), date_(std::move(date)), machines_(std::move(machines)) {}
  // The catalog compiled into gkebuild: accelerators.yaml, read when gkebuild is built
  // (catalog_table.cpp), so that no run parses it.
  static const Catalog& builtin();
  // Parses a catalog file (the same format); errors are SourceError with positions.
  static Catalog parse(std::string_view yaml, const std::string& file_name);
  // Parses a machine price file (machines.yaml's format), the same way.
  static std::vector<MachinePrice> parse_machines(std::string_view yaml, const std::string& file_name);
  // The region the built-in prices are for: the cost summary and the report price in it.
  static constexpr std::string_view price_region = "us-central1";

  const Accelerator* find(std::string_view label) const;
  // Like find, but an unknown label throws SourceError at `where` with a "did you mean".
  const Accelerator& get(std::string_view label, const SourceLocation& where = {},
                         std::string_view source = {}) const;
  std::vector<std::string> labels() const;
  // " (did you mean 'nvidia-l4'?)" for "nvidia-tesla-l4", "l4" or a near miss; or "".
  std::string suggestion(std::string_view label) const;
  const std::vector<Accelerator>& accelerators() const { return accelerators_; }
  const std::string& date() const { return date_; }
  // The price of `machine_type` in `region`, or nullptr when the catalog has no row for it
  // there (a note-only row without a region, "no figure read", answers for every region).
  const MachinePrice* machine_price(std::string_view machine_type,
                                    std::string_view region = price_region) const;
  // The regions the catalog prices `machine_type` in, in the file's order.
  std::vector<std::string> machine_regions(std::string_view machine_type) const;
  const std::vector<MachinePrice>& machine_prices() const { return machines_; }
  // The same catalog with these machine prices (a --catalog file has accelerators only).
  Catalog with_machines(std::vector<MachinePrice> machines) const;

 private:
  std::vector<Accelerator> accelerators_;
  std::string date_;
  std::vector<MachinePrice> machines_;
};

}  // namespace gkebuild::catalog
