// One ThroughputRow or MetricRow from the samples of one case on one accelerator.
#pragma once

#include "tool/core/catalog/catalog.h"
#include "tool/steps/report/samples.h"

namespace gkebuild::report {

ThroughputRow throughput_row(const GroupKey& group, const std::vector<Sample>& samples,
                             const catalog::Catalog& catalog);

MetricRow metric_row(const GroupKey& group, const std::vector<Sample>& samples);

}  // namespace gkebuild::report
