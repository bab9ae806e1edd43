// The compiled-in accelerator catalog: complete, consistent, and strict about its format.
#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "tool/core/catalog/catalog.h"
#include "tool/core/catalog/catalog_listing.h"
#include "tool/core/catalog/node_price.h"

namespace gkebuild::catalog {
namespace {

TEST(Catalog, HasEveryGkeGpuLabel) {
  const auto& catalog = Catalog::builtin();
  for (const char* label : {"nvidia-tesla-t4", "nvidia-l4", "nvidia-tesla-a100", "nvidia-a100-80gb",
                            "nvidia-h100-80gb", "nvidia-h100-mega-80gb", "nvidia-h200-141gb", "nvidia-b200",
                            "nvidia-tesla-v100", "nvidia-tesla-p4", "nvidia-tesla-p100", "nvidia-tesla-k80",
                            "nvidia-gb200", "nvidia-gb300", "nvidia-rtx-pro-6000"})
    EXPECT_NE(catalog.find(label), nullptr) << label;
  EXPECT_EQ(catalog.labels().size(), catalog.accelerators().size());
}

TEST(Catalog, EveryEntryIsComplete) {
  const std::regex date("20[0-9]{2}-[01][0-9]-[0-3][0-9]");
  std::set<std::string> short_names;
  for (const auto& a : Catalog::builtin().accelerators()) {
    SCOPED_TRACE(a.label);
    EXPECT_FALSE(a.gpu.empty());
    EXPECT_EQ(a.cuda_arch, "sm_" + std::to_string(a.compute_major) + std::to_string(a.compute_minor));
    EXPECT_GE(a.compute_major, 3);
    EXPECT_GT(a.memory_gib, 0);
    EXPECT_FALSE(a.machine_types.empty());
    for (const auto& machine : a.machine_types) EXPECT_GE(machine.gpus, 1) << machine.name;
    EXPECT_TRUE(short_names.insert(a.short_name).second) << "duplicate short name " << a.short_name;
    // A price with its source and date, or a note saying why there is none.
    if (a.on_demand) {
      EXPECT_GT(a.on_demand->usd_per_gpu_hour, 0);
      EXPECT_FALSE(a.on_demand->source.empty());
      EXPECT_TRUE(std::regex_match(a.on_demand->date, date)) << a.on_demand->date;
    } else {
      EXPECT_FALSE(a.price_note.empty());
    }
    if (a.spot) {
      EXPECT_FALSE(a.spot->source.empty());
      EXPECT_TRUE(std::regex_match(a.spot->date, date));
    }
    if (!a.peak_tflops.empty()) {
      EXPECT_FALSE(a.peak_source.empty());
    }
    // Zones with their source and date, or a note saying the reference gives none.
    if (a.zones.list.empty()) {
      EXPECT_FALSE(a.zones.note.empty());
    } else {
      EXPECT_FALSE(a.zones.source.empty());
      EXPECT_FALSE(a.zones.date.empty());
      EXPECT_FALSE(a.zones.regions.empty());
    }
  }
}

TEST(Catalog, ZonesOfAGpu) {
  const auto& l4 = Catalog::builtin().get("nvidia-l4").zones;
  EXPECT_EQ(l4.in_region("us-central1"), (std::vector<std::string>{"us-central1-a", "us-central1-b", "us-central1-c"}));
  EXPECT_TRUE(l4.lacks("us-central1-f"));
  EXPECT_FALSE(l4.lacks("us-central1-a"));
  EXPECT_FALSE(l4.lacks("europe-west2-a"));  // a region the source does not cover: nothing known
  EXPECT_FALSE(Catalog::builtin().get("nvidia-tesla-t4").zones.lacks("us-central1-f"));
  EXPECT_TRUE(Catalog::builtin().get("nvidia-tesla-v100").zones.list.empty());  // the reference gives none
}

TEST(Catalog, KnownFacts) {
  const auto& catalog = Catalog::builtin();
  const auto* t4 = catalog.find("nvidia-tesla-t4");
  ASSERT_NE(t4, nullptr);
  EXPECT_EQ(t4->cuda_arch, "sm_75");
  EXPECT_EQ(t4->compute_capability(), "7.5");
  EXPECT_DOUBLE_EQ(t4->on_demand->usd_per_gpu_hour, 0.35);
  const auto* l4 = catalog.find("nvidia-l4");
  EXPECT_EQ(l4->machine_types.front().name, "g2-standard-4");
  EXPECT_EQ(catalog.find("nvidia-a100-80gb")->cuda_arch, "sm_80");
  EXPECT_EQ(catalog.find("nvidia-h100-80gb")->peak_tflops.at("fp32"), 67);
  EXPECT_EQ(catalog.find("nvidia-tesla-l4"), nullptr);  // XManager's derived, wrong label
}

TEST(Catalog, SuggestsByGpuNameAndByEditDistance) {
  const auto& catalog = Catalog::builtin();
  EXPECT_EQ(catalog.suggestion("nvidia-tesla-l4"), " (did you mean 'nvidia-l4'?)");
  EXPECT_EQ(catalog.suggestion("h100"), " (did you mean 'nvidia-h100-80gb'?)");
  EXPECT_EQ(catalog.suggestion("nvidia-tesla-t5"), " (did you mean 'nvidia-tesla-t4'?)");
  EXPECT_EQ(catalog.suggestion("tpu-v5"), "");
}

TEST(Catalog, UnknownLabelSuggestsTheClosest) {
  try {
    Catalog::builtin().get("nvidia-tesla-l4", {"gkebuild.yaml", 3, 7});
    FAIL() << "no error";
  } catch (const SourceError& e) {
    EXPECT_EQ(e.where().line, 3);
    EXPECT_NE(std::string(e.what()).find("did you mean 'nvidia-l4'"), std::string::npos) << e.what();
  }
}

TEST(Catalog, ParseErrorsArePositioned) {
  const std::string bad =
      "catalogDate: '2026-01-01'\n"
      "accelerators:\n"
      "  - label: x\n"
      "    shortName: x\n"
      "    gpu: X\n"
      "    computeCapability: '7.5'\n"
      "    cudaArch: sm_80\n";
  try {
    Catalog::parse(bad, "cat.yaml");
    FAIL() << "no error";
  } catch (const SourceError& e) {
    EXPECT_EQ(e.where().line, 7);
    EXPECT_EQ(e.where().column, 15);
    EXPECT_NE(e.message().find("does not match computeCapability"), std::string::npos) << e.what();
  }
}

TEST(Catalog, PriceNeedsSourceAndDate) {
  const std::string bad =
      "catalogDate: '2026-01-01'\n"
      "accelerators:\n"
      "  - {label: x, shortName: x, gpu: X, computeCapability: '7.5', cudaArch: sm_75, memoryGiB: 16,\n"
      "     machineTypes: [{name: m, gpus: 1}],\n"
      "     prices: {onDemand: {usdPerGpuHour: 1.0, source: somewhere}}}\n";
  EXPECT_THROW(Catalog::parse(bad, "cat.yaml"), SourceError);
}

// prices.flexStart: the Dynamic Workload Scheduler price, which flex-start and queued runs pay
// (price_for); dated and sourced like the others. Without one those runs have no price.
TEST(Catalog, FlexStartPriceIsWhatFlexStartAndQueuedRunsPay) {
  const std::string head =
      "catalogDate: '2026-01-01'\n"
      "accelerators:\n"
      "  - {label: x, shortName: x, gpu: X, computeCapability: '7.5', cudaArch: sm_75, memoryGiB: 16,\n"
      "     machineTypes: [{name: m, gpus: 1}],\n"
      "     prices: {onDemand: {usdPerGpuHour: 1.0, source: s, date: '2026-01-01'}";
  const Catalog priced = Catalog::parse(head + ",\n       flexStart: {usdPerGpuHour: 0.5, source: d, date: '2026-01-02'}}}\n", "cat.yaml");
  const Accelerator& x = *priced.find("x");
  EXPECT_EQ(x.price_for("on-demand")->usd_per_gpu_hour, 1.0);
  EXPECT_EQ(x.price_for("flex-start")->usd_per_gpu_hour, 0.5);
  EXPECT_EQ(x.price_for("queued")->date, "2026-01-02");
  EXPECT_FALSE(x.price_for("spot"));
  const Catalog unpriced = Catalog::parse(head + "}}\n", "cat.yaml");
  EXPECT_FALSE(unpriced.find("x")->price_for("flex-start"));  // never the on-demand rate
  EXPECT_THROW(Catalog::parse(head + ", flexStart: {usdPerGpuHour: 0.5}}}\n", "cat.yaml"), SourceError);
}

// prices.regions: one source and date for per-region [onDemand, spot] rows, which alone price
// the GPU outside us-central1; their us-central1 row must be the listed price.
TEST(Catalog, RegionPricesPriceEachListedRegion) {
  const std::string head =
      "catalogDate: '2026-01-01'\n"
      "accelerators:\n"
      "  - {label: x, shortName: x, gpu: X, computeCapability: '7.5', cudaArch: sm_75, memoryGiB: 16,\n"
      "     machineTypes: [{name: m, gpus: 1}],\n"
      "     prices: {onDemand: {usdPerGpuHour: 1.0, source: s, date: '2026-01-01'},\n"
      "              spot: {usdPerGpuHour: 0.4, source: s, date: '2026-01-01'},\n"
      "              regions: {source: r, date: '2026-01-03', usdPerGpuHour: ";
  const Catalog catalog = Catalog::parse(head + "{us-central1: [1.0, 0.4], europe-west4: [1.2, 0.3]}}}}\n", "cat.yaml");
  const Accelerator& x = *catalog.find("x");
  std::string why;
  EXPECT_EQ(x.price_in("on-demand", "europe-west4", why)->usd_per_gpu_hour, 1.2);
  EXPECT_EQ(x.price_in("spot", "europe-west4", why)->usd_per_gpu_hour, 0.3);
  EXPECT_EQ(x.price_in("spot", "europe-west4", why)->date, "2026-01-03");
  EXPECT_FALSE(x.price_in("on-demand", "asia-east1", why));
  EXPECT_EQ(why, "no catalog price for x in asia-east1 (priced in us-central1, europe-west4)");
  EXPECT_FALSE(x.price_in("flex-start", "europe-west4", why));  // no DWS figure
  try {
    Catalog::parse(head + "{us-central1: [1.1, 0.4]}}}}\n", "cat.yaml");
    FAIL() << "no error";
  } catch (const SourceError& e) {
    EXPECT_NE(e.message().find("differs from prices.onDemand/spot"), std::string::npos) << e.what();
  }
  EXPECT_THROW(Catalog::parse(head + "{europe-west4: [1.2]}}}}\n", "cat.yaml"), SourceError);
}

// machines.yaml (issue 43): the vCPU and memory part of the machine types each GPU comes in and
// of common CPU machine types, per region, with source and date; every accelerator's machine
// types are there (a4-highgpu-8g with a note for every region: its source lists no figure).
TEST(MachinePrices, CoverEveryGpuMachineTypeAndCommonCpuOnes) {
  const Catalog& catalog = Catalog::builtin();
  const std::regex date("20[0-9]{2}-[01][0-9]-[0-3][0-9]");
  const std::set<std::string> regions{"us-central1", "us-east1",     "us-east4",       "us-west1",
                                      "us-west4",    "europe-west4", "asia-southeast1"};
  for (const auto& machine : catalog.machine_prices()) {
    SCOPED_TRACE(machine.name + " " + machine.region);
    EXPECT_TRUE(regions.count(machine.region) || (machine.region.empty() && !machine.on_demand));
    EXPECT_GT(machine.vcpus, 0);
    EXPECT_GT(machine.memory_gib, 0);
    EXPECT_NE(machine.source.find("skypilot-catalog"), std::string::npos) << machine.source;
    EXPECT_TRUE(std::regex_match(machine.date, date)) << machine.date;
    EXPECT_TRUE(machine.on_demand || !machine.note.empty());
    if (machine.on_demand && machine.spot) {
      EXPECT_LT(*machine.spot, *machine.on_demand);
    }
    EXPECT_FALSE(machine.flex_start);  // none is published
  }
  for (const char* label : {"nvidia-tesla-t4", "nvidia-l4", "nvidia-tesla-a100", "nvidia-a100-80gb", "nvidia-h100-80gb",
                            "nvidia-h100-mega-80gb", "nvidia-h200-141gb", "nvidia-b200"})
    for (const auto& type : catalog.find(label)->machine_types) {
      SCOPED_TRACE(std::string(label) + " " + type.name);
      const MachinePrice* machine = catalog.machine_price(type.name);
      ASSERT_NE(machine, nullptr);
      EXPECT_EQ(machine->vcpus, type.vcpus);
    }
  for (const char* cpu : {"e2-standard-2", "e2-standard-4", "e2-standard-8", "n2-standard-8", "n1-standard-8", "c2-standard-16"})
    EXPECT_TRUE(catalog.machine_price(cpu) && catalog.machine_price(cpu)->on_demand) << cpu;
  // Figures as read (skypilot-catalog v8 gcp/vms.csv, us-central1).
  EXPECT_DOUBLE_EQ(*catalog.machine_price("a3-highgpu-8g")->on_demand, 9.46006);
  EXPECT_DOUBLE_EQ(*catalog.machine_price("a3-highgpu-8g")->spot, 2.88933);
  EXPECT_DOUBLE_EQ(*catalog.machine_price("e2-standard-4")->on_demand, 0.13402);
  EXPECT_DOUBLE_EQ(*catalog.machine_price("e2-standard-4", "europe-west4")->on_demand, 0.14754);
  EXPECT_EQ(catalog.machine_price("n2-standard-8", "us-west4"), nullptr);  // not read
  EXPECT_FALSE(catalog.machine_price("a4-highgpu-8g")->on_demand);
  EXPECT_FALSE(catalog.machine_price("a4-highgpu-8g", "europe-west4")->on_demand);  // its note holds everywhere
  // Every GPU that carries region rows has one for us-central1, equal to its listed price.
  for (const auto& accelerator : catalog.accelerators()) {
    if (accelerator.region_prices.empty()) continue;
    SCOPED_TRACE(accelerator.label);
    EXPECT_NE(accelerator.region_source.find("skypilot-catalog"), std::string::npos);
    std::string why;
    const auto c1 = accelerator.price_in("on-demand", "us-central1", why);
    ASSERT_TRUE(c1) << why;
    EXPECT_EQ(c1->usd_per_gpu_hour, accelerator.on_demand->usd_per_gpu_hour);
  }
}

// Prices by region (issue 43): a node in a region with other prices costs what that region
// charges; a region the catalog lacks for the machine type or the GPU is unpriced with the reason
// (where it is priced), never priced as us-central1.
TEST(MachinePrices, NodeRateIsTheRegionsPrice) {
  const Catalog& catalog = Catalog::builtin();
  const Accelerator& l4 = *catalog.find("nvidia-l4");
  const NodePricing central = node_rate(catalog, "g2-standard-4", &l4, "on-demand", "us-central1");
  const NodePricing europe = node_rate(catalog, "g2-standard-4", &l4, "on-demand", "europe-west4");
  ASSERT_TRUE(central.rate && europe.rate) << central.missing << europe.missing;
  EXPECT_NEAR(central.rate->usd_per_hour, 0.14679 + 0.56004, 1e-9);
  EXPECT_NEAR(europe.rate->usd_per_hour, 0.15429 + 0.58804, 1e-9);  // skypilot-catalog v8, europe-west4 rows
  EXPECT_EQ(europe.rate->region, "europe-west4");
  const NodePricing europe_spot = node_rate(catalog, "g2-standard-4", &l4, "spot", "europe-west4");
  ASSERT_TRUE(europe_spot.rate);
  EXPECT_NEAR(europe_spot.rate->usd_per_hour, 0.0715 + 0.2438, 1e-9);
  // a3-highgpu-8g: its VM part in europe-west4.
  EXPECT_DOUBLE_EQ(*catalog.machine_price("a3-highgpu-8g", "europe-west4")->on_demand, 9.93306);
  // A region the machine type has no row for.
  EXPECT_EQ(node_rate(catalog, "g2-standard-4", &l4, "on-demand", "us-south1").missing,
            "no catalog price for machine type g2-standard-4 in us-south1 (priced in us-central1, us-east1, us-east4, "
            "us-west1, us-west4, europe-west4, asia-southeast1)");
  EXPECT_EQ(node_rate(catalog, "n2-standard-8", nullptr, "on-demand", "us-west4").missing,
            "no catalog price for machine type n2-standard-8 in us-west4 (priced in us-central1, us-east1, us-east4, "
            "us-west1, europe-west4, asia-southeast1; us-west4 not read from the source)");
  // The machine type is priced there, the GPU is not.
  EXPECT_EQ(node_rate(catalog, "n1-standard-8", catalog.find("nvidia-tesla-v100"), "on-demand", "us-east4").missing,
            "no catalog price for nvidia-tesla-v100 in us-east4 (priced in us-central1, us-east1, us-west1, "
            "europe-west4)");
  // A GPU priced in us-central1 only.
  EXPECT_EQ(node_rate(catalog, "a2-ultragpu-1g", catalog.find("nvidia-a100-80gb"), "spot", "europe-west4").missing,
            "the catalog prices nvidia-a100-80gb in us-central1 only");
  EXPECT_TRUE(node_rate(catalog, "a2-ultragpu-1g", catalog.find("nvidia-a100-80gb"), "spot", "us-central1").rate);
}

// A whole node: the VM part plus every GPU of the machine type, at the provisioning's rate.
const std::string kNoDwsText =
    "no DWS (flex-start) price: Google publishes none per GPU or machine type, only \"discounted\" (up to 53%)";

TEST(MachinePrices, NodeRateIsTheVmPlusItsGpus) {
  const Catalog& catalog = Catalog::builtin();
  const Accelerator& l4 = *catalog.find("nvidia-l4");
  // g2-standard-4: 0.14679 + 0.56004 = 0.70683, Google's list price for the machine.
  const NodePricing g2 = node_rate(catalog, "g2-standard-4", &l4, "on-demand");
  ASSERT_TRUE(g2.rate) << g2.missing;
  EXPECT_NEAR(g2.rate->usd_per_hour, 0.70683, 1e-9);
  EXPECT_EQ(g2.rate->gpus, 1);
  // g2-standard-48 carries 4 L4s.
  const NodePricing g2_48 = node_rate(catalog, "g2-standard-48", &l4, "spot");
  ASSERT_TRUE(g2_48.rate);
  EXPECT_NEAR(g2_48.rate->usd_per_hour, 0.70483 + 4 * l4.spot->usd_per_gpu_hour, 1e-9);
  EXPECT_EQ(g2_48.rate->billed_as, "spot");
  // A reservation's VMs are billed at on-demand rates.
  EXPECT_NEAR(node_rate(catalog, "g2-standard-4", &l4, "reservation").rate->usd_per_hour, 0.70683, 1e-9);
  // A CPU machine is its VM.
  EXPECT_NEAR(node_rate(catalog, "n2-standard-8", nullptr, "on-demand").rate->usd_per_hour, 0.38847, 1e-9);
  // No rate, with the reason: flex-start, an unknown machine type, one the GPU does not come in.
  EXPECT_EQ(node_rate(catalog, "g2-standard-4", &l4, "flex-start").missing, kNoDwsText);
  EXPECT_EQ(node_rate(catalog, "g2-standard-4", &l4, "queued").missing, kNoDwsText);
  EXPECT_EQ(node_rate(catalog, "z9-made-up-4", nullptr, "on-demand").missing,
            "no catalog price for machine type z9-made-up-4");
  EXPECT_EQ(node_rate(catalog, "n2-standard-8", &l4, "on-demand").missing,
            "n2-standard-8 is not a machine type of nvidia-l4");
  EXPECT_FALSE(node_rate(catalog, "a4-highgpu-8g", catalog.find("nvidia-b200"), "on-demand").rate);
}

// machines.yaml's format is checked like the accelerators' (also a catalog file's machinePrices:).
TEST(MachinePrices, ParseChecksEveryField) {
  const std::string head = "source: s\ndate: '2026-11-28'\nregion: us-central1\nmachines:\n";
  const auto machines = Catalog::parse_machines(head + "  - {name: m-1, vcpus: 2, memoryGiB: 8, onDemand: 0.1, spot: 0.05}\n"
                                                       "  - {name: m-2, vcpus: 2, memoryGiB: 8, note: unknown}\n",
                                                "m.yaml");
  ASSERT_EQ(machines.size(), 2u);
  EXPECT_EQ(machines[0].source, "s");
  EXPECT_EQ(machines[0].date, "2026-11-28");
  EXPECT_EQ(*machines[0].spot, 0.05);
  EXPECT_FALSE(machines[1].on_demand);
  try {
    Catalog::parse_machines(head + "  - {name: m-1, vcpus: 2, memoryGiB: 8}\n", "m.yaml");
    FAIL() << "no error";
  } catch (const SourceError& e) {
    EXPECT_EQ(e.where().line, 5);
    EXPECT_NE(e.message().find("give onDemand, or a note"), std::string::npos) << e.what();
  }
  EXPECT_THROW(Catalog::parse_machines(head + "  - {name: m, vcpus: 2, memoryGiB: 8, onDemand: -1}\n", "m.yaml"),
               SourceError);
  EXPECT_THROW(Catalog::parse_machines(head + "  - {name: m, vcpus: 2, memoryGiB: 8, onDemand: 1, sopt: 1}\n", "m.yaml"),
               SourceError);
  EXPECT_THROW(Catalog::parse_machines(head + "  - {name: m, vcpus: 2, memoryGiB: 8, onDemand: 1}\n"
                                              "  - {name: m, vcpus: 2, memoryGiB: 8, onDemand: 1}\n",
                                       "m.yaml"),
               SourceError);
  // machines.yaml's own form: prices by region, one row each.
  const auto by_region = Catalog::parse_machines(
      "source: s\ndate: '2026-11-28'\nmachines:\n  - {name: m, vcpus: 2, memoryGiB: 8, prices: {r-1: [0.2, 0.1], "
      "r-2: [0.3, 0.1]}}\n",
      "m.yaml");
  ASSERT_EQ(by_region.size(), 2u);
  EXPECT_EQ(by_region[1].region, "r-2");
  EXPECT_EQ(*by_region[1].on_demand, 0.3);
  for (const char* bad : {"prices: {r: [0.2]}", "prices: {r: [0.2, -1]}", "prices: {r: 0.2}",
                          "region: r, prices: {r: [0.2, 0.1]}"})
    EXPECT_THROW(Catalog::parse_machines("source: s\ndate: '2026-11-28'\nmachines:\n  - {name: m, vcpus: 2, "
                                         "memoryGiB: 8, " + std::string(bad) + "}\n", "m.yaml"),
                 SourceError) << bad;
  const Catalog with = Catalog::parse("catalogDate: '2026-01-01'\naccelerators: []\nmachinePrices:\n  source: s\n  "
                                      "date: '2026-11-28'\n  region: r\n  machines:\n  - {name: m, vcpus: 1, "
                                      "memoryGiB: 1, onDemand: 1}\n",
                                      "cat.yaml");
  EXPECT_NE(with.machine_price("m", "r"), nullptr);
}

// `gkebuild accelerators -o json` lists the machine prices beside the GPUs'.
TEST(MachinePrices, ListedInTheJson) {
  const auto json = catalog_to_json(Catalog::builtin());
  ASSERT_TRUE(json.contains("machinePrices"));
  bool found = false;
  for (const auto& row : json["machinePrices"])
    if (row["name"] == "g2-standard-4" && row["region"] == "us-central1") {
      found = true;
      EXPECT_EQ(row["onDemand"], 0.14679);
    }
  EXPECT_TRUE(found);
  // And the GPUs' prices per region.
  for (const auto& accelerator : json["accelerators"])
    if (accelerator["label"] == "nvidia-l4") {
      EXPECT_EQ(accelerator["prices"]["regions"]["usdPerGpuHour"]["europe-west4"][0], 0.58804);
      EXPECT_NE(accelerator["prices"]["regions"]["source"].get<std::string>().find("skypilot-catalog"), std::string::npos);
    }
}

}  // namespace
}  // namespace gkebuild::catalog
