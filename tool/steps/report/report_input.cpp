#include "tool/steps/report/report_input.h"

#include <algorithm>
#include <set>

#include "base/atomic_file.h"
#include "base/error.h"
#include "base/printable.h"
#include "tool/core/runrecord/run_store.h"
#include "tool/steps/report/html_writer.h"
#include "tool/steps/report/number_format.h"
#include "tool/steps/report/points_table.h"
#include "tool/steps/report/report_charts.h"
#include "tool/steps/report/report_writers.h"

namespace gkebuild::report {
namespace fs = std::filesystem;
namespace {

std::string format_report(const Report& report, const std::string& format) {
  if (format == "md") return write_markdown(report);
  if (format == "csv") return write_csv(report);
  if (format == "json") return write_json(report);
  throw Error(ErrorKind::kBadInput, "unknown report format " + in_quotes(format) + ": expected md, csv or json");
}

catalog::Catalog load_catalog(const fs::path& file) {
  if (file.empty()) return catalog::Catalog::builtin();
  catalog::Catalog catalog = catalog::Catalog::parse(read_file(file), file.string());
  // A catalog of accelerators only prices nodes with the built-in machine prices.
  if (catalog.machine_prices().empty()) return catalog.with_machines(catalog::Catalog::builtin().machine_prices());
  return catalog;
}

}  // namespace

LoadedRun load_run_argument(const std::string& argument, const fs::path& project_dir) {
  fs::path dir = argument;
  std::error_code error;
  if (!fs::exists(dir / "run.json", error)) {
    // A path must be a run folder; a plain word is a run name under the project.
    if (argument.find('/') != std::string::npos || fs::is_directory(dir, error))
      throw SourceError({argument, 0, 0}, "not a run folder: it holds no run.json");
    dir = runrecord::find_run(project_dir, argument);
  }
  return {dir, runrecord::load_run(dir), runrecord::read_results(dir)};
}

std::vector<fs::path> experiment_runs(const std::string& name, const fs::path& project_dir) {
  std::vector<std::pair<runrecord::TimePoint, fs::path>> found;
  for (const auto& dir : runrecord::list_runs(project_dir)) {
    const std::string folder = dir.filename().string();
    if (!folder.starts_with(name + "-")) continue;  // EXPERIMENT-YYYYMMDD-HHMMSS: no need to read others
    try {
      const auto record = runrecord::load_run(dir);
      if (record.experiment == name) found.emplace_back(record.created, dir);
    } catch (const Error&) {
      // A broken run.json: named if the user names that run; no reason to fail the others.
    }
  }
  std::sort(found.begin(), found.end());
  std::vector<fs::path> dirs;
  for (auto& [created, dir] : found) dirs.push_back(std::move(dir));
  return dirs;
}

namespace {

// A run (folder, name or prefix), or an experiment's name: its latest run, named on stderr,
// or with `all_runs` every one of them.
std::vector<LoadedRun> load_runs_of(const std::string& argument, const ReportOptions& options, std::ostream& err) {
  std::error_code error;
  const bool exact_run = fs::exists(options.project_dir / ".gkebuild" / "runs" / argument / "run.json", error) ||
                         argument.find('/') != std::string::npos;
  const auto dirs = exact_run ? std::vector<fs::path>{} : experiment_runs(argument, options.project_dir);
  if (dirs.empty()) return {load_run_argument(argument, options.project_dir)};
  if (!options.all_runs) {
    if (!options.quiet)
      err << "gkebuild report: " << "experiment '" << printable(argument) << "' has " << count_of(dirs.size(), "run") << "; the latest, "
          << printable(dirs.back().filename().string()) << " (--all-runs compares them all)\n";
    return {load_run_argument(dirs.back().string(), options.project_dir)};
  }
  std::vector<LoadedRun> runs;
  for (const auto& dir : dirs) runs.push_back(load_run_argument(dir.string(), options.project_dir));
  return runs;
}

}  // namespace

void run_report(const ReportOptions& options, std::ostream& out, std::ostream& err) {
  catalog::Catalog catalog = load_catalog(options.catalog_file);
  std::vector<LoadedRun> runs;
  std::set<fs::path> seen;
  for (const auto& argument : options.runs)
    for (auto& run : load_runs_of(argument, options, err))
      if (seen.insert(fs::weakly_canonical(run.dir)).second) runs.push_back(std::move(run));
  Report report = build_report(runs, catalog, options.baseline, options.group_by, options.include_stopped);
  report.points = options.points;
  check_points_view(report);
  if (std::string reason = empty_report_reason(report); !reason.empty()) {
    for (const auto& skipped : report.skipped)
      reason += "\n" + to_string(skipped.where) + ": skipped: " + skipped.reason;
    throw Error(ErrorKind::kBadInput, reason);
  }
  std::string text = format_report(report, options.format);
  // Files first: a failed write must not follow a report that looked complete.
  if (!options.svg_file.empty()) {
    const std::string svg = write_svg(report);
    write_file_atomically(options.svg_file, svg);  // never empty: a report without rows stopped above
  }
  if (!options.html_file.empty()) write_file_atomically(options.html_file, write_html(report));
  out << text;
  if (!report.skipped.empty() && options.format == "csv")
    for (const auto& skipped : report.skipped)
      err << to_string(skipped.where) << ": skipped: " << skipped.reason << "\n";
}

}  // namespace gkebuild::report
