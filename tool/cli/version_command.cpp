// `gkebuild version`: the version, as `kubectl version --client` prints it.
#include <iostream>

#include "base/version.h"
#include "cli/command.h"
#include "cli/exit_codes.h"

namespace gkebuild::cli {
namespace {

void setup(CLI::App& app, Action& action) {
  auto* command = app.add_subcommand("version", "Print the gkebuild version");
  command->callback([&action] {
    action = [] {
      std::cout << "gkebuild " << kVersion << "\n";
      return kExitSuccess;
    };
  });
}

const CommandRegistration registration(100, "version", setup);

}  // namespace
}  // namespace gkebuild::cli
