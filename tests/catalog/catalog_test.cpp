// The compiled-in accelerator catalog: complete, consistent, and strict about its format.
#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "tool/core/catalog/catalog.h"

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

}  // namespace
}  // namespace gkebuild::catalog
