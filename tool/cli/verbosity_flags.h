// -q/--quiet and -v/--verbose mean the same on every command: quiet leaves stderr to warnings
// and errors; verbose says more there (each registry or Kubernetes API request, never
// credentials; each object that passed validation). gkebuild prints no colour at all, and redraws progress only when
// stderr is a terminal, so NO_COLOR and pipes need nothing more.
#pragma once

#include <CLI/CLI.hpp>

namespace gkebuild::cli {

inline constexpr const char* kQuietHelp = "Quiet: nothing on stderr but warnings and errors (no progress, notes or summaries)";
inline constexpr const char* kVerboseHelp = "Verbose: more on stderr (each registry or Kubernetes API request, never credentials; each valid object)";

inline CLI::Option* add_quiet_flag(CLI::App& command, bool& quiet) {
  return command.add_flag("-q,--quiet", quiet, kQuietHelp);
}

inline CLI::Option* add_verbose_flag(CLI::App& command, bool& verbose) {
  return command.add_flag("-v,--verbose", verbose, kVerboseHelp);
}

}  // namespace gkebuild::cli
