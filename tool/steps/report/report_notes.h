// The notes under a report (what a reader must know to trust the numbers) and the prices used.
#pragma once

#include <vector>

#include "tool/core/catalog/catalog.h"
#include "tool/steps/report/samples.h"

namespace gkebuild::report {

// Mixed units, missing prices, CPU runs, Jobs that failed or have no times, Jobs counted in
// several cases, Jobs stopped before they finished (and whether their results count), and how
// cost is computed.
void add_notes(Report& report, const std::vector<LoadedRun>& runs, const Groups& groups,
               const catalog::Catalog& catalog, bool include_stopped = false);

// One row per accelerator in the throughput table, with its catalog prices.
std::vector<PriceRow> price_rows(const Report& report, const catalog::Catalog& catalog);

}  // namespace gkebuild::report
