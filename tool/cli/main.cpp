// The gkebuild executable: parses the command line and runs one subcommand.
// Errors the user can fix exit 2 with a positioned message; see support/exit_codes.h.
#include <algorithm>
#include <iostream>

#include "base/exit_codes.h"
#include "base/source_error.h"
#include "cli/command.h"

namespace gkebuild::cli {

std::vector<RegisteredCommand>& registered_commands() {
  static std::vector<RegisteredCommand> commands;
  return commands;
}

CommandRegistration::CommandRegistration(int order, CommandSetup setup) {
  registered_commands().push_back({order, setup});
}

}  // namespace gkebuild::cli

int main(int argc, char** argv) {
  using namespace gkebuild;
  CLI::App app{"gkebuild: render, build, push, validate and run GPU experiments on GKE"};
  app.set_version_flag("--version", "gkebuild 0.1.0");
  app.require_subcommand(1);

  auto commands = cli::registered_commands();
  std::stable_sort(commands.begin(), commands.end(),
                   [](const auto& a, const auto& b) { return a.order < b.order; });
  cli::Action action;
  for (const auto& command : commands) command.setup(app, action);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? kExitSuccess : kExitUsage;
  }
  try {
    return action ? action() : kExitUsage;
  } catch (const SourceError& e) {
    std::cerr << e.what() << "\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "gkebuild: error: " << e.what() << "\n";
    return kExitUsage;
  }
}
