// `gkebuild runs`: list the runs recorded in .gkebuild/runs (tool/submit).
#include "tool/cli/command.h"
#include "tool/cli/output_flags.h"
#include "tool/cli/run_options.h"

namespace gkebuild::cli {
namespace {

void setup(CLI::App& app, Action& action) {
  auto flags = std::make_shared<RunCommandFlags>();
  auto* command = app.add_subcommand("runs", "List the runs recorded in .gkebuild/runs");
  add_output_flags(*command, flags->output, {"text", "json"}, "text (a table with a header), or json (a list)", false);
  set_run_action(command, action, flags, submit::list_runs_command);
}

const CommandRegistration registration(41, "runs", setup);

}  // namespace
}  // namespace gkebuild::cli
