// Manual pages from the CLI definitions themselves (run at build time by the hidden `gkebuild
// __man DIR`), so they cannot drift from --help: gkebuild.1 with the list of commands, and
// gkebuild-CMD.1 for each command with its arguments and flags.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace gkebuild::cli {

// Text escaped for roff: backslashes, hyphens, and a leading '.' or '\''.
std::string roff_escaped(const std::string& text);

// The page of one command (a subcommand of `gkebuild`), sub-subcommands included.
std::string command_man_page(const CLI::App& command, const std::string& version);

// The top page: what gkebuild is and its commands, as `commands` lists them.
std::string main_man_page(const CLI::App& app, const std::string& version);

}  // namespace gkebuild::cli
