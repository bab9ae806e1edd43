// `gkebuild report RUN…`: throughput, time and cost by accelerator from run records
// (tool/steps/report), as Markdown, CSV or JSON, with SVG charts and an HTML page on request.
#include <iostream>
#include <memory>

#include "base/exit_codes.h"
#include "tool/cli/command.h"
#include "tool/cli/latest_run.h"
#include "tool/cli/output_flags.h"
#include "tool/cli/project_flags.h"
#include "tool/cli/verbosity_flags.h"
#include "tool/steps/report/report_input.h"

namespace gkebuild::cli {
namespace {

struct ReportFlags {
  report::ReportOptions options;
  ProjectFlags project;
  OutputFlags output{"md"};
  std::string project_folder;  // --project DIR, the deprecated spelling of -f DIR/gkebuild.yaml
  bool points = false;  // --points; else the report decides
};

void setup(CLI::App& app, Action& action) {
  auto flags = std::make_shared<ReportFlags>();
  auto& options = flags->options;
  auto* command = app.add_subcommand(
      "report", "Compare accelerators by throughput, time and cost from recorded runs");
  command->add_option("runs", options.runs,
                      "run folders, or run names (or unique prefixes) under .gkebuild/runs (default: the "
                      "project's latest run)");
  add_quiet_flag(*command, flags->output.quiet);
  command->add_option("--baseline", options.baseline,
                      "accelerator label (or cpu) for speed-up and cost ratio (default: the slowest of each case)");
  command->add_option("--group-by", options.group_by,
                      "VAR,…: pool the sweep points that differ only in these variables (e.g. seed) into one row; "
                      "by default every point has rows of its own")
      ->delimiter(',');
  command->add_flag("--all-runs", options.all_runs,
                    "with an experiment's name: compare every run of it (default: its latest run)");
  command->add_flag("--include-stopped", options.include_stopped,
                    "count the results of Jobs stopped before they finished (Ctrl-C); left out by default");
  command->add_flag("--points", flags->points,
                    "a table of sweep points, one column per metric (default: when the runs compare no accelerators)");
  command->add_option("--metric", options.points.value,
                      "the value of each metric a point shows: last (default), best, min, max or median")
      ->check(CLI::IsMember({"last", "best", "min", "max", "median"}));
  command->add_option("--sort", options.points.sort,
                      "METRIC: sort the points by it (default: a loss, error or accuracy, better end first)");
  command->add_flag("--desc", options.points.descending, "with --sort: highest first");
  add_output_flags(*command, flags->output, {"md", "csv", "json"}, "md (default), csv or json, on stdout", false);
  command->add_option("--svg", options.svg_file, "write the charts to this SVG file");
  command->add_option("--html", options.html_file, "write a page with the tables and charts to this file");
  command->add_option("--catalog", options.catalog_file,
                      "an accelerator catalog with your own prices (default: the built-in one)");
  add_project_flags(*command, flags->project);
  command->add_option("--project", flags->project_folder)->group("");  // hidden, deprecated
  command->callback([&action, flags] {
    action = [flags] {
      auto& options = flags->options;
      options.format = flags->output.format;
      if (flags->points) options.points.shown = true;
      options.quiet = flags->output.quiet;
      options.project_dir =
          flags->project_folder.empty() ? project_dir(flags->project) : std::filesystem::path(flags->project_folder);
      if (options.runs.empty())
        options.runs.push_back(latest_run_name(options.project_dir, "report", flags->output.quiet, std::cerr));
      report::run_report(options, std::cout, std::cerr);
      return kExitSuccess;
    };
  });
}

const CommandRegistration registration(60, "report", setup);

}  // namespace
}  // namespace gkebuild::cli
