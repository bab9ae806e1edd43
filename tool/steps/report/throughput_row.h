// One ThroughputRow or MetricRow from the samples of one case on one accelerator.
#pragma once

#include "tool/core/catalog/catalog.h"
#include "tool/steps/report/samples.h"

namespace gkebuild::report {

// Cost on demand and cost spot in `region`; cost as run in each Job's run's recorded region
// (`region` for runs that recorded none).
ThroughputRow throughput_row(const GroupKey& group, const std::vector<Sample>& samples,
                             const catalog::Catalog& catalog, const std::string& region);

MetricRow metric_row(const GroupKey& group, const std::vector<Sample>& samples);

}  // namespace gkebuild::report
