// `gkebuild status`: show where a run's Jobs stand (asks the cluster while the run goes on) (tool/submit).
#include "tool/cli/command.h"
#include "tool/cli/output_flags.h"
#include "tool/cli/run_options.h"

namespace gkebuild::cli {
namespace {

void setup(CLI::App& app, Action& action) {
  auto flags = std::make_shared<RunCommandFlags>();
  auto* command = app.add_subcommand("status", "Show where a run's Jobs stand (asks the cluster while the run goes on)");
  add_run_argument(command, *flags);
  add_output_flags(*command, flags->output, {"text", "json"}, "text, or json: run.json (after asking the cluster)", false);
  command->add_flag("--json", flags->options.json)->group("");  // hidden: the old spelling of -o json
  // A flag callback, not "!--no-refresh": CLI11 prints a negated flag's default in --help ("{false}").
  command->add_flag_callback("--no-refresh", [flags] { flags->options.refresh = false; },
                             "show the record as it is, without asking the cluster");
  set_run_action(command, action, flags, submit::status_command);
}

const CommandRegistration registration(42, "status", setup);

}  // namespace
}  // namespace gkebuild::cli
