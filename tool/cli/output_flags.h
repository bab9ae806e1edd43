// The output flags of commands whose output is data: -o/--output FORMAT and -q/--quiet.
// Formats are the command's own (push: text|json, validate: text|json|junit|sarif|github,
// report: md|csv|json, status: text|json); progress goes to stderr only when it is a terminal
// and not --quiet.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace gkebuild::cli {

struct OutputFlags {
  std::string format;  // one of the command's formats; empty: the command's default
  bool quiet = false;
};

// -o/--output FORMAT (checked against `formats`), and -q/--quiet where the command has
// progress to silence (`quiet` true).
void add_output_flags(CLI::App& command, OutputFlags& flags, const std::vector<std::string>& formats,
                      const std::string& description, bool quiet);

}  // namespace gkebuild::cli
