// The table of sweep points: one row per point (and accelerator where there are several), one
// column per metric, sorted by one metric with the best point marked. What a sweep is for:
// which lr and hidden size gave the lowest validation loss.
#pragma once

#include <optional>
#include <string>

#include "tool/steps/report/report_model.h"
#include "tool/steps/report/report_tables.h"

namespace gkebuild::report {

// Whether the report shows the table: --points, else when it compares no accelerators.
bool points_shown(const Report& report);

// Error(kBadInput) for a --sort metric no row has, or an unknown --metric value.
void check_points_view(const Report& report);

// true: lower is better (loss, error, time…); false: higher (accuracy, throughput…); nullopt
// when the name does not say.
std::optional<bool> lower_is_better(const std::string& metric);

// The metric the rows are sorted by: --sort, else a search's objective, else a metric whose name says which end is
// better (a validation one first); "" for none.
std::string sort_metric(const Report& report);

Table points_table(const Report& report);

// "Sorted by val_loss, lowest first; * marks the best point. Each cell: the last value …"
std::string points_caption(const Report& report);

}  // namespace gkebuild::report
