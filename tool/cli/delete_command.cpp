// `gkebuild delete`: delete a run's Jobs (and their pods) from the cluster and mark the record (tool/submit).
#include "tool/cli/command.h"
#include "tool/cli/run_options.h"

namespace gkebuild::cli {
namespace {

void setup(CLI::App& app, Action& action) {
  auto flags = std::make_shared<RunCommandFlags>();
  auto* command = app.add_subcommand("delete", "Delete a run's Jobs (and their pods) from the cluster and mark the record");
  add_run_argument(command, *flags, RunArgument::kRequired);
  set_run_action(command, action, flags, submit::delete_command);
}

const CommandRegistration registration(44, "delete", setup);

}  // namespace
}  // namespace gkebuild::cli
