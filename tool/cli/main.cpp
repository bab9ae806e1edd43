// The gkebuild executable: parses the command line and runs one subcommand.
// How it ends becomes the exit code through the one table in base/exit_codes.h.
#include <stdlib.h>

#include <algorithm>
#include <iostream>
#include <string_view>

#include "base/exit_codes.h"
#include "base/printable.h"
#include "base/source_error.h"
#include "tool/cli/command.h"
#include "tool/cli/command_line.h"
#include "tool/cli/version_text.h"

namespace gkebuild::cli {

std::vector<RegisteredCommand>& registered_commands() {
  static std::vector<RegisteredCommand> commands;
  return commands;
}

CommandRegistration::CommandRegistration(int order, const char* name, CommandSetup setup) {
  registered_commands().push_back({order, name, setup});
}

namespace {

// "gkebuild push: error: …", naming the command that ran; positioned errors print
// as compilers print them ("file:line:col: error: …" and a caret).
// Control characters that reached a message unescaped (from a server, a child process, a
// name) are escaped here, the last guard before the terminal.
void report(const CLI::App& app, const std::exception& error) {
  if (dynamic_cast<const SourceError*>(&error) != nullptr) {
    std::cerr << printable_lines(error.what()) << "\n";
    return;
  }
  auto commands = app.get_subcommands();
  std::string name = commands.empty() ? "gkebuild" : "gkebuild " + commands.front()->get_name();
  std::cerr << name << ": error: " << printable_lines(error.what()) << "\n";
}

}  // namespace
}  // namespace gkebuild::cli

int main(int argc, char** argv) {
  using namespace gkebuild;
  using namespace gkebuild::cli;
  CLI::App app{std::string("gkebuild: ") + kGkebuildDescription};
  add_root_options(app);
  app.require_subcommand(1);

  std::vector<std::string> arguments = command_line_arguments(argc, argv);
  try {
    if (const auto cache_dir = take_cache_dir(arguments)) ::setenv("GKEBUILD_CACHE_DIR", cache_dir->c_str(), 1);
  } catch (const SourceError& e) {
    std::cerr << printable_lines(e.what()) << "\n";
    return kExitUsage;
  }
  std::vector<char*> argument_pointers;
  for (const auto& argument : arguments) argument_pointers.push_back(const_cast<char*>(argument.c_str()));
  auto commands = registered_commands();
  std::stable_sort(commands.begin(), commands.end(),
                   [](const auto& a, const auto& b) { return a.order < b.order; });
  Action action;
  // The command named first on the command line is the only one set up: the others' options
  // were two thirds of a trivial render's start (pre-commit and editors start gkebuild once per
  // file). Anything else (--help, --version, a typo, nothing) sets them all up, for the list of
  // commands and CLI11's suggestions.
  const std::string_view first = arguments.size() > 1 ? std::string_view(arguments[1]) : "";
  const auto named = std::find_if(commands.begin(), commands.end(), [&](const auto& c) { return first == c.name; });
  if (named != commands.end()) {
    named->setup(app, action);
  } else {
    std::vector<std::string> names;
    for (const auto& command : commands)
      if (command.name[0] != '_') names.push_back(command.name);  // hidden ones are not suggested
    if (auto message = unknown_command_message(arguments, names)) {
      std::cerr << *message << "\n";
      return kExitUsage;
    }
    for (const auto& command : commands) command.setup(app, action);
    // A registration whose name is not the subcommand it adds would set up the wrong command.
    for (const auto& command : commands) {
      try {
        app.get_subcommand(command.name);
      } catch (const CLI::OptionNotFound&) {
        std::cerr << "gkebuild: internal error: the command registered as '" << command.name << "' has another name\n";
        return kExitUsage;
      }
    }
  }

  try {
    app.parse(static_cast<int>(argument_pointers.size()), argument_pointers.data());
  } catch (const CLI::ExtrasError& e) {
    const std::string message = named == commands.end() ? "" : unknown_flags_message(*app.get_subcommand(named->name), arguments);
    if (message.empty()) return app.exit(e) == 0 ? kExitSuccess : kExitUsage;
    std::cerr << message << "\n";
    return kExitUsage;
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? kExitSuccess : kExitUsage;
  }
  try {
    return action ? action() : kExitUsage;
  } catch (const Error& e) {
    report(app, e);
    return exit_code(e.kind());
  } catch (const std::exception& e) {  // untyped: the tool could not run
    report(app, e);
    return kExitUsage;
  }
}
