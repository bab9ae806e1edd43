// What `gkebuild report` runs: the RUN arguments resolved and loaded, the report built and
// written to stdout (md, csv or json) and to the --svg / --html files.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "tool/steps/report/report_build.h"

namespace gkebuild::report {

// A folder holding run.json, else a run name or unique prefix under PROJECT/.gkebuild/runs.
// Errors (no such run, a malformed run.json) are SourceError.
LoadedRun load_run_argument(const std::string& argument, const std::filesystem::path& project_dir);

// Runs of the experiment `name` (run.json's `experiment`), oldest first; none when it names none.
std::vector<std::filesystem::path> experiment_runs(const std::string& name, const std::filesystem::path& project_dir);

struct ReportOptions {
  std::vector<std::string> runs;
  std::filesystem::path project_dir;  // where .gkebuild/runs is
  std::string baseline;               // "" : the slowest accelerator of each case
  std::vector<std::string> group_by;  // sweep variables pooled over (--group-by seed)
  bool quiet = false;            // no note on stderr naming the run an experiment's name took
  bool all_runs = false;         // an experiment's name: every run of it, not only the latest
  bool include_stopped = false;  // count the results of Jobs stopped before they finished
  PointsView points;             // the table of sweep points (report_model.h)
  std::string format = "md";          // md, csv, json
  std::filesystem::path svg_file, html_file;  // empty: not written
  std::filesystem::path catalog_file;         // empty: the built-in catalog
};

// Writes the report to `out` (and the files asked for); throws Error(kBadInput) when no
// run has a usable result line, naming the reason and each skipped line.
void run_report(const ReportOptions& options, std::ostream& out, std::ostream& err);

}  // namespace gkebuild::report
