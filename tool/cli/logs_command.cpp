// `gkebuild logs`: print a run's recorded logs; -f follows the run again until it finishes (tool/submit).
// As in kubectl, -f is --follow here; the project file is --file.
#include "tool/cli/command.h"
#include "tool/cli/run_options.h"

namespace gkebuild::cli {
namespace {

void setup(CLI::App& app, Action& action) {
  auto flags = std::make_shared<RunCommandFlags>();
  auto* command = app.add_subcommand("logs", "Print a run's recorded logs; -f follows the run again until it finishes");
  add_run_argument(command, *flags);
  command->add_flag("-f,--follow", flags->options.follow, "follow the run again until every Job has finished");
  set_run_action(command, action, flags, submit::logs_command, ShortFile::kNo);
}

const CommandRegistration registration(43, "logs", setup);

}  // namespace
}  // namespace gkebuild::cli
