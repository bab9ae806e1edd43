// `gkebuild submit EXPERIMENT`: image, push, render, apply and follow (tool/submit).
#include <memory>

#include "base/exit_codes.h"
#include "tool/cli/command.h"
#include "tool/cli/process_console.h"
#include "tool/cli/request_log.h"
#include "tool/cli/submit_flags.h"
#include "tool/submit/submit.h"

namespace gkebuild::cli {
namespace {

int run(const SubmitFlags& flags) {
  submit::SubmitOptions options = submit_options(flags);
  options.console = process_console();
  if (flags.verbose) log_cluster_requests();
  return exit_code(submit::run_submit(options));
}

void setup(CLI::App& app, Action& action) {
  auto flags = std::make_shared<SubmitFlags>();
  auto* command = app.add_subcommand("submit", "Build, push, render and apply an experiment's Jobs, then follow "
                                               "them to their results (or run them here with --local)");
  add_submit_flags(*command, *flags);
  command->callback([&action, flags] { action = [flags] { return run(*flags); }; });
}

const CommandRegistration registration(40, "submit", setup);

}  // namespace
}  // namespace gkebuild::cli
