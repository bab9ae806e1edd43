// `gkebuild status`: show where a run's Jobs stand (asks the cluster while the run goes on) (tool/submit).
#include "cli/command.h"
#include "cli/run_options.h"

namespace gkebuild::cli {
namespace {

void setup(CLI::App& app, Action& action) {
  auto flags = std::make_shared<RunCommandFlags>();
  auto* command = app.add_subcommand("status", "Show where a run's Jobs stand (asks the cluster while the run goes on)");
  add_run_argument(command, *flags);
  command->add_flag("--json", flags->options.json, "print run.json (after asking the cluster)");
  command->add_flag("!--no-refresh", flags->options.refresh, "show the record as it is, without asking the cluster");
  set_run_action(command, action, flags, submit::status_command);
}

const CommandRegistration registration(42, setup);

}  // namespace
}  // namespace gkebuild::cli
