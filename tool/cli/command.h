// How subcommands join the executable: each *_command.cpp defines one
// registration object, so a new command is one new file and no edit elsewhere.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace gkebuild::cli {

// What a parsed command line runs; returns the process exit code.
using Action = std::function<int()>;

// Adds a subcommand to `app`; its parse callback stores what to run in `action`.
using CommandSetup = void (*)(CLI::App& app, Action& action);

struct CommandRegistration {
  // `order` sorts the commands in --help, the way a user meets them; `name` is the
  // subcommand's name, as `setup` adds it.
  CommandRegistration(int order, const char* name, CommandSetup setup);
};

struct RegisteredCommand {
  int order;
  const char* name;
  CommandSetup setup;
};
std::vector<RegisteredCommand>& registered_commands();

}  // namespace gkebuild::cli
