// `gkebuild version`: the version, as `kubectl version --client` prints it.
#include <iostream>

#include "cli/command.h"

namespace gkebuild::cli {
namespace {

void setup(CLI::App& app, Action& action) {
  auto* command = app.add_subcommand("version", "Print the gkebuild version");
  command->callback([&action] {
    action = [] {
      std::cout << "gkebuild 0.1.0\n";
      return 0;
    };
  });
}

const CommandRegistration registration(100, setup);

}  // namespace
}  // namespace gkebuild::cli
