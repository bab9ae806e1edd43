// Reading machines.yaml (GCE machine prices per region) into MachinePrice rows; every field
// is checked, so a malformed edit fails the build with a file:line:col message.
#include <regex>
#include <set>
#include <tuple>

#include "base/printable.h"
#include "tool/core/catalog/machine_parse.h"
#include "tool/core/yamlfile/fields.h"
#include "tool/core/yamlfile/scalars.h"

namespace gkebuild::catalog {
namespace {

using yamlfile::Document;
using yamlfile::Fields;

void check_date(const Fields& fields, const std::string& date) {
  static const std::regex pattern("[0-9]{4}-[0-9]{2}-[0-9]{2}");
  if (!std::regex_match(date, pattern))
    fields.document().fail(fields.get("date"), fields.name("date") + ": expected YYYY-MM-DD");
}

std::optional<double> usd(const Fields& fields, const char* key) {
  if (!fields.has(key)) return std::nullopt;
  const double value = yamlfile::as_number(fields.document(), fields.get(key), fields.name(key));
  if (value <= 0) fields.document().fail(fields.get(key), fields.name(key) + ": price must be positive");
  return value;
}

// A machine type's rows: one per region of its `prices:` map, or the single `region:` form
// (onDemand, spot; a --catalog file's machinePrices may use either).
std::vector<MachinePrice> parse_machine(const Document& doc, const YAML::Node& node, const std::string& what,
                                        const MachinePrice& defaults) {
  Fields fields(doc, node, what,
                {"name", "region", "vcpus", "memoryGiB", "prices", "onDemand", "spot", "flexStart", "source", "date",
                 "note"});
  MachinePrice machine = defaults;
  machine.name = fields.required_string("name");
  machine.region = fields.string("region", defaults.region);
  fields.required("vcpus");
  machine.vcpus = static_cast<int>(fields.integer("vcpus", 0, 1));
  machine.memory_gib = yamlfile::as_number(doc, fields.required("memoryGiB"), fields.name("memoryGiB"));
  machine.on_demand = usd(fields, "onDemand");
  machine.spot = usd(fields, "spot");
  machine.flex_start = usd(fields, "flexStart");
  machine.source = fields.string("source", defaults.source);
  machine.date = fields.string("date", defaults.date);
  if (fields.has("date")) check_date(fields, machine.date);
  machine.note = fields.string("note", "");
  if (fields.has("prices")) {
    if (fields.has("region") || machine.on_demand || machine.spot)
      doc.fail(node, what + ": give prices: {REGION: [onDemand, spot]} or region/onDemand/spot, not both");
    std::vector<MachinePrice> rows;
    const YAML::Node prices = fields.get("prices");
    for (const auto& region : yamlfile::mapping_keys(doc, prices, fields.name("prices"))) {
      MachinePrice row = machine;
      row.region = region;
      std::tie(row.on_demand, row.spot) = region_pair(doc, prices[region], fields.name("prices") + "." + region);
      rows.push_back(std::move(row));
    }
    if (rows.empty() && machine.note.empty()) doc.fail(node, what + ": no region in prices, and no note saying why");
    return rows;
  }
  if (!machine.on_demand && machine.note.empty())
    doc.fail(node, what + ": give onDemand, or a note saying why there is no price");
  // A note without a price and without a region holds for every region (a4-highgpu-8g: the
  // source lists 0.0 everywhere), so that "no price" can say why wherever the run is.
  if (machine.region.empty() && machine.on_demand)
    doc.fail(node, what + ": no region (give one here or at the top)");
  return {machine};
}

}  // namespace

std::pair<double, double> region_pair(const Document& doc, const YAML::Node& node, const std::string& what) {
  if (!node.IsSequence() || node.size() != 2)
    doc.fail(node, what + ": expected [onDemand, spot], got " + yamlfile::describe(node));
  const double on_demand = yamlfile::as_number(doc, node[0], what + "[0]");
  const double spot = yamlfile::as_number(doc, node[1], what + "[1]");
  if (on_demand <= 0 || spot <= 0) doc.fail(node, what + ": price must be positive");
  return {on_demand, spot};
}

std::vector<MachinePrice> parse_machine_prices(const Document& doc, const YAML::Node& node, const std::string& what) {
  Fields top(doc, node, what, {"source", "date", "region", "machines"});
  MachinePrice defaults;
  defaults.source = top.required_string("source");
  defaults.date = top.required_string("date");
  check_date(top, defaults.date);
  defaults.region = top.string("region", "");
  const YAML::Node list = top.required("machines");
  if (!list.IsSequence()) doc.fail(list, top.name("machines") + ": expected a list, got " + yamlfile::describe(list));
  std::vector<MachinePrice> machines;
  std::set<std::pair<std::string, std::string>> seen;
  for (size_t i = 0; i < list.size(); ++i) {
    auto rows = parse_machine(doc, list[i], top.name("machines") + "[" + std::to_string(i) + "]", defaults);
    for (auto& machine : rows) {
      if (!seen.insert({machine.name, machine.region}).second)
        doc.fail(list[i], "machine type " + in_quotes(machine.name) + " is listed twice for " + machine.region);
      machines.push_back(std::move(machine));
    }
  }
  return machines;
}

std::vector<MachinePrice> Catalog::parse_machines(std::string_view yaml, const std::string& file_name) {
  const Document doc = Document::parse(std::string(yaml), file_name);
  return parse_machine_prices(doc, doc.root(), "machine prices");
}

}  // namespace gkebuild::catalog
