// `gkebuild report RUN…`: throughput, time and cost by accelerator from run records
// (tool/report), as Markdown, CSV or JSON, with SVG charts and an HTML page on request.
#include <iostream>
#include <memory>

#include "cli/command.h"
#include "imageproject/project_images.h"
#include "report/report_input.h"

namespace gkebuild::cli {
namespace {

void setup(CLI::App& app, Action& action) {
  auto options = std::make_shared<report::ReportOptions>();
  auto project = std::make_shared<std::string>();
  auto* command = app.add_subcommand(
      "report", "Compare accelerators by throughput, time and cost from recorded runs");
  command->add_option("runs", options->runs,
                      "run folders, or run names (or unique prefixes) under .gkebuild/runs")
      ->required();
  command->add_option("--baseline", options->baseline,
                      "accelerator label (or cpu) for speed-up and cost ratio (default: the slowest of each case)");
  command->add_option("-o,--output", options->format, "md (default), csv or json, on stdout")
      ->check(CLI::IsMember({"md", "csv", "json"}));
  command->add_option("--svg", options->svg_file, "write the charts to this SVG file");
  command->add_option("--html", options->html_file, "write a page with the tables and charts to this file");
  command->add_option("--catalog", options->catalog_file,
                      "an accelerator catalog with your own prices (default: the built-in one)");
  command->add_option("--project", *project, "project folder (default: the nearest gkebuild.yaml upwards)");
  command->callback([&action, options, project] {
    action = [options, project] {
      if (!project->empty()) {
        options->project_dir = *project;
      } else {
        auto file = imageproject::find_project_file(std::filesystem::current_path());
        options->project_dir = file.empty() ? std::filesystem::current_path() : file.parent_path();
      }
      return report::run_report(*options, std::cout, std::cerr);
    };
  });
}

const CommandRegistration registration(60, setup);

}  // namespace
}  // namespace gkebuild::cli
