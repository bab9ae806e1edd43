// The fixture runs under tests/tool/steps/report/fixtures, with their own catalog of round prices.
#pragma once

#include <string>
#include <vector>

#include "base/atomic_file.h"
#include "tool/steps/report/report_build.h"
#include "tool/steps/report/report_input.h"

namespace gkebuild::report::testing {

inline const std::string kFixtures = GKEBUILD_SOURCE_ROOT "/tests/tool/steps/report/fixtures";
// A project folder as submit leaves it: .gkebuild/runs/RUN/{run.json,results.jsonl}.
inline const std::string kProject = kFixtures + "/project";

inline const catalog::Catalog& fixture_catalog() {
  static const catalog::Catalog catalog =
      catalog::Catalog::parse(read_file(kFixtures + "/catalog.yaml"), "catalog.yaml");
  return catalog;
}

inline Report fixture_report(const std::vector<std::string>& names, const std::string& baseline = "") {
  std::vector<LoadedRun> runs;
  for (const auto& name : names) runs.push_back(load_run_argument(name, kProject));
  return build_report(runs, fixture_catalog(), baseline);
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace gkebuild::report::testing
