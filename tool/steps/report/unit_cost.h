// Cost of a unit of work: how long the median throughput takes for it, times the hourly rate.
#pragma once

#include <optional>
#include <vector>

#include "tool/core/catalog/catalog.h"
#include "tool/steps/report/report_model.h"

namespace gkebuild::report {

struct HourlyRate {
  std::optional<double> on_demand, spot;  // USD per hour for the Job's nodes, whole
};

// The units of work a throughput unit measures: TFLOP/s, GFLOP/s -> per 10^15 FLOP; samples/s ->
// per 1,000 samples, and per epoch when the shape names train_samples. Other units: none.
std::vector<UnitCost> unit_costs(const ThroughputRow& row, const nlohmann::json& shape,
                                 const HourlyRate& rate);

}  // namespace gkebuild::report
