// What the command line gets before and after CLI11 parses it: `gkebuild help CMD` read as
// `gkebuild CMD --help`, and "did you mean" for a misspelt command or flag (exit 2), which
// CLI11 answers with "A subcommand is required" or "arguments were not expected".
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gkebuild::cli {

// The options of `gkebuild` itself, before any command: --version and --cache-dir (which
// take_cache_dir takes out wherever it stands). main sets them up, and completion offers them.
void add_root_options(CLI::App& app);

// argv as strings, with `help [CMD…]` rewritten to `[CMD…] --help`.
std::vector<std::string> command_line_arguments(int argc, char** argv);

// The message for a first argument that is no command (nullopt when it is one, an option,
// or absent), naming the closest command.
std::optional<std::string> unknown_command_message(const std::vector<std::string>& arguments,
                                                   const std::vector<std::string>& command_names);

// The message for flags `command` does not have among `arguments`, each with the closest
// flag it has; empty when every flag is known (the parse failed for another reason).
// Takes `--cache-dir DIR` (or `--cache-dir=DIR`) out of the arguments wherever it stands before a
// `--`, the machine-wide store's folder for every command (GKEBUILD_CACHE_DIR's flag); the last
// one given, nullopt when none. Throws SourceError when DIR is missing or empty.
std::optional<std::string> take_cache_dir(std::vector<std::string>& arguments);

std::string unknown_flags_message(const CLI::App& command, const std::vector<std::string>& arguments);

}  // namespace gkebuild::cli
