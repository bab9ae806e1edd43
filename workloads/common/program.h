// What every workload's main() shares: command-line parsing with the project's exit codes and
// the mapping of errors to a one-line message on stderr.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "workloads/common/common_options.h"

namespace gkebuild::workloads {

void add_common_options(CLI::App& app, CommonOptions& options);

// Parses argv, or with `--args-from FILE` alone the lines of FILE (an Indexed sweep's point);
// returns the exit code when the program should stop (help printed: 0, a parse
// error: 2), nothing when it should go on.
std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv);

// Runs `body`, turning UsageError into exit 2, every other failure into exit 1, each with a
// "program: error: …" line on stderr.
int run_guarded(const std::string& program, const std::function<int()>& body);

}  // namespace gkebuild::workloads
