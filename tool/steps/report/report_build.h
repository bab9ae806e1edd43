// From run records and the accelerator catalog to a Report (report_model.h).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "tool/core/catalog/catalog.h"
#include "tool/core/runrecord/results_file.h"
#include "tool/core/runrecord/run_record.h"
#include "tool/steps/report/report_model.h"

namespace gkebuild::report {

struct LoadedRun {
  std::filesystem::path dir;
  runrecord::RunRecord record;
  runrecord::Results results;
};

// `baseline`: an accelerator label (or "cpu") to compare against; "" compares each case
// with its slowest accelerator. A baseline no run measured is std::invalid_argument.
// `pooled`: sweep variables whose points are pooled into one row (--group-by seed); each must
// be a parameter of some Job of the runs, else Error(kBadInput).
// `include_stopped`: count the results of Jobs stopped before they finished (left out, with a
// note, by default).
Report build_report(const std::vector<LoadedRun>& runs, const catalog::Catalog& catalog,
                    const std::string& baseline, const std::vector<std::string>& pooled = {},
                    bool include_stopped = false);

// "RUN: no results.jsonl" … for each run that gave nothing; "" when the report has rows.
std::string empty_report_reason(const Report& report);

}  // namespace gkebuild::report
