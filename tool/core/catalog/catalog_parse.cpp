// Reading accelerators.yaml into the Catalog; every field is checked, so a
// malformed edit fails the build's tests with a file:line:col message.
#include <regex>
#include <set>

#include "tool/core/catalog/catalog.h"
#include "tool/core/catalog/machine_parse.h"
#include "base/printable.h"
#include "tool/core/yamlfile/fields.h"
#include "tool/core/yamlfile/scalars.h"

namespace gkebuild::catalog {
namespace {

using yamlfile::Document;
using yamlfile::Fields;

MachineType parse_machine_type(const Document& doc, const YAML::Node& node, const std::string& what) {
  Fields fields(doc, node, what, {"name", "gpus", "vcpus", "memoryGB"});
  MachineType machine;
  machine.name = fields.required_string("name");
  fields.required("gpus");
  machine.gpus = static_cast<int>(fields.integer("gpus", 0, 1));
  machine.vcpus = static_cast<int>(fields.integer("vcpus", 0, 0));
  if (fields.has("memoryGB")) machine.memory_gb = yamlfile::as_number(doc, fields.get("memoryGB"), fields.name("memoryGB"));
  return machine;
}

Price parse_price(const Document& doc, const YAML::Node& node, const std::string& what) {
  Fields fields(doc, node, what, {"usdPerGpuHour", "source", "date"});
  Price price;
  price.usd_per_gpu_hour = yamlfile::as_number(doc, fields.required("usdPerGpuHour"), fields.name("usdPerGpuHour"));
  if (price.usd_per_gpu_hour <= 0) doc.fail(fields.get("usdPerGpuHour"), what + ": price must be positive");
  price.source = fields.required_string("source");
  price.date = fields.required_string("date");
  static const std::regex date_pattern("[0-9]{4}-[0-9]{2}-[0-9]{2}");
  if (!std::regex_match(price.date, date_pattern))
    doc.fail(fields.get("date"), what + ".date: expected YYYY-MM-DD");
  return price;
}

// prices.regions: {source, date, note, usdPerGpuHour: {REGION: [onDemand, spot]}}. Its
// us-central1 row must agree with prices.onDemand/spot, which `accelerators` lists.
void parse_region_prices(const Document& doc, const YAML::Node& node, const std::string& what,
                         Accelerator& accelerator) {
  Fields fields(doc, node, what, {"source", "date", "note", "usdPerGpuHour"});
  accelerator.region_source = fields.required_string("source");
  accelerator.region_date = fields.required_string("date");
  static const std::regex date_pattern("[0-9]{4}-[0-9]{2}-[0-9]{2}");
  if (!std::regex_match(accelerator.region_date, date_pattern))
    doc.fail(fields.get("date"), what + ".date: expected YYYY-MM-DD");
  accelerator.region_note = fields.string("note", "");
  const YAML::Node rows = fields.required("usdPerGpuHour");
  for (const auto& region : yamlfile::mapping_keys(doc, rows, fields.name("usdPerGpuHour"))) {
    const auto [on_demand, spot] = region_pair(doc, rows[region], fields.name("usdPerGpuHour") + "." + region);
    accelerator.region_prices.push_back({region, on_demand, spot});
    if (region != Catalog::price_region) continue;
    if ((accelerator.on_demand && accelerator.on_demand->usd_per_gpu_hour != on_demand) ||
        (accelerator.spot && accelerator.spot->usd_per_gpu_hour != spot))
      doc.fail(rows[region], what + "." + region + ": differs from prices.onDemand/spot (the same region)");
  }
}

void parse_prices(const Document& doc, const YAML::Node& node, const std::string& what,
                  Accelerator& accelerator) {
  Fields fields(doc, node, what, {"onDemand", "spot", "flexStart", "note", "regions"});
  if (fields.has("onDemand")) accelerator.on_demand = parse_price(doc, fields.get("onDemand"), what + ".onDemand");
  if (fields.has("spot")) accelerator.spot = parse_price(doc, fields.get("spot"), what + ".spot");
  if (fields.has("flexStart"))
    accelerator.flex_start = parse_price(doc, fields.get("flexStart"), what + ".flexStart");
  accelerator.price_note = fields.string("note", "");
  if (fields.has("regions")) parse_region_prices(doc, fields.get("regions"), what + ".regions", accelerator);
  if (!accelerator.on_demand && accelerator.price_note.empty())
    doc.fail(node, what + ": give onDemand, or a note saying why there is no price");
}

void parse_peak(const Document& doc, const YAML::Node& node, const std::string& what,
                Accelerator& accelerator) {
  static const std::set<std::string> precisions{"fp64", "fp32", "tf32", "fp16", "bf16", "fp8"};
  Fields fields(doc, node, what, {"values", "source"});
  accelerator.peak_source = fields.required_string("source");
  const YAML::Node values = fields.required("values");
  for (const auto& key : yamlfile::mapping_keys(doc, values, what + ".values")) {
    if (!precisions.count(key)) doc.fail(values, what + ".values: unknown precision " + in_quotes(key));
    accelerator.peak_tflops[key] = yamlfile::as_number(doc, values[key], what + ".values." + key);
  }
}

Zones parse_zones(const Document& doc, const YAML::Node& node, const std::string& what) {
  Fields fields(doc, node, what, {"list", "regions", "source", "date", "note"});
  Zones zones;
  zones.note = fields.string("note", "");
  if (!zones.note.empty() && !fields.has("list")) return zones;
  zones.list = fields.strings("list");
  zones.regions = fields.strings("regions");
  zones.source = fields.required_string("source");
  zones.date = fields.required_string("date");
  static const std::regex date_pattern("[0-9]{4}-[0-9]{2}(-[0-9]{2})?");
  if (!std::regex_match(zones.date, date_pattern)) doc.fail(fields.get("date"), what + ".date: expected YYYY-MM or YYYY-MM-DD");
  static const std::regex zone("[a-z]+-[a-z]+[0-9]+-[a-z]");
  for (std::size_t i = 0; i < zones.list.size(); ++i)
    if (!std::regex_match(zones.list[i], zone)) doc.fail(fields.get("list")[i], what + ".list: '" + zones.list[i] + "' is not a zone");
  return zones;
}

void parse_capability(const Fields& fields, Accelerator& accelerator) {
  static const std::regex capability("([0-9]+)\\.([0-9]+)");
  const std::string text = fields.required_string("computeCapability");
  std::smatch match;
  if (!std::regex_match(text, match, capability))
    fields.document().fail(fields.get("computeCapability"), fields.name("computeCapability") + ": expected \"major.minor\"");
  accelerator.compute_major = std::stoi(match[1]);
  accelerator.compute_minor = std::stoi(match[2]);
  accelerator.cuda_arch = fields.required_string("cudaArch");
  if (accelerator.cuda_arch != "sm_" + match[1].str() + match[2].str())
    fields.document().fail(fields.get("cudaArch"), fields.name("cudaArch") + ": does not match computeCapability " + text);
}

Accelerator parse_accelerator(const Document& doc, const YAML::Node& node, size_t index) {
  Fields fields(doc, node, "accelerators[" + std::to_string(index) + "]",
                {"label", "shortName", "gpu", "computeCapability", "cudaArch", "memoryGiB",
                 "machineTypes", "migProfiles", "prices", "peakTflops", "notes", "zones"});
  Accelerator accelerator;
  accelerator.label = fields.required_string("label");
  accelerator.short_name = fields.required_string("shortName");
  accelerator.gpu = fields.required_string("gpu");
  parse_capability(fields, accelerator);
  accelerator.memory_gib = yamlfile::as_number(doc, fields.required("memoryGiB"), fields.name("memoryGiB"));
  const YAML::Node machines = fields.required("machineTypes");
  if (!machines.IsSequence() || machines.size() == 0)
    doc.fail(machines, fields.name("machineTypes") + ": expected a non-empty list");
  for (size_t i = 0; i < machines.size(); ++i)
    accelerator.machine_types.push_back(
        parse_machine_type(doc, machines[i], fields.name("machineTypes") + "[" + std::to_string(i) + "]"));
  accelerator.mig_profiles = fields.strings("migProfiles");
  parse_prices(doc, fields.required("prices"), fields.name("prices"), accelerator);
  if (fields.has("peakTflops")) parse_peak(doc, fields.get("peakTflops"), fields.name("peakTflops"), accelerator);
  accelerator.notes = fields.string("notes", "");
  // Optional for other catalogs (tests, reports); the built-in one has zones or a note for every GPU.
  if (fields.has("zones")) accelerator.zones = parse_zones(doc, fields.get("zones"), fields.name("zones"));
  return accelerator;
}

}  // namespace

Catalog Catalog::parse(std::string_view yaml, const std::string& file_name) {
  const Document doc = Document::parse(std::string(yaml), file_name);
  Fields top(doc, doc.root(), "catalog", {"catalogDate", "accelerators", "machinePrices"});
  Catalog catalog;
  catalog.date_ = top.required_string("catalogDate");
  const YAML::Node list = top.required("accelerators");
  if (!list.IsSequence()) doc.fail(list, "accelerators: expected a list, got " + yamlfile::describe(list));
  std::set<std::string> labels;
  for (size_t i = 0; i < list.size(); ++i) {
    Accelerator accelerator = parse_accelerator(doc, list[i], i);
    if (!labels.insert(accelerator.label).second)
      doc.fail(list[i], "accelerator " + in_quotes(accelerator.label) + " is listed twice");
    catalog.accelerators_.push_back(std::move(accelerator));
  }
  // Optional: machines.yaml's format; the built-in catalog keeps it in its own file.
  if (top.has("machinePrices")) catalog.machines_ = parse_machine_prices(doc, top.get("machinePrices"), "machinePrices");
  return catalog;
}

}  // namespace gkebuild::catalog
