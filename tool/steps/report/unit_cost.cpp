#include "tool/steps/report/unit_cost.h"

namespace gkebuild::report {
namespace {

// `amount` of work at `throughput` per second costs rate x seconds / 3600.
std::optional<double> cost(std::optional<double> usd_per_hour, double amount, double throughput) {
  if (!usd_per_hour || throughput <= 0) return std::nullopt;
  return *usd_per_hour * (amount / throughput) / 3600.0;
}

UnitCost unit_cost(const std::string& unit, double amount, const ThroughputRow& row,
                   const HourlyRate& rate) {
  return {unit,
          row.median > 0 ? std::optional<double>(amount / row.median) : std::nullopt,
          cost(rate.on_demand, amount, row.median), cost(rate.on_demand, amount, row.max),
          cost(rate.on_demand, amount, row.min),
          cost(rate.spot, amount, row.median), cost(rate.spot, amount, row.max),
          cost(rate.spot, amount, row.min)};
}

}  // namespace

std::vector<UnitCost> unit_costs(const ThroughputRow& row, const nlohmann::json& shape,
                                 const HourlyRate& rate) {
  std::vector<UnitCost> costs;
  if (row.key.unit == "TFLOP/s") {
    costs.push_back(unit_cost("10^15 FLOP", 1e3, row, rate));  // 10^15 FLOP = 10^3 TFLOP
  } else if (row.key.unit == "GFLOP/s") {
    costs.push_back(unit_cost("10^15 FLOP", 1e6, row, rate));
  } else if (row.key.unit == "samples/s") {
    if (auto samples = shape.find("train_samples"); samples != shape.end() && samples->is_number() &&
                                                    samples->get<double>() > 0)
      costs.push_back(unit_cost("epoch", samples->get<double>(), row, rate));
    costs.push_back(unit_cost("1,000 samples", 1000.0, row, rate));
  }
  return costs;
}

}  // namespace gkebuild::report
