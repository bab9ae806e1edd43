// The report as text: Markdown (default), CSV (one row per accelerator, case and unit of
// work) and JSON (everything, full precision, null where a figure is not available).
#pragma once

#include <string>

#include "tool/steps/report/report_model.h"

namespace gkebuild::report {

std::string write_markdown(const Report& report);
std::string write_csv(const Report& report);
std::string write_json(const Report& report);

}  // namespace gkebuild::report
