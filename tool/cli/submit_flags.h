// The flags of `gkebuild submit`, bound straight into the parts of submit::SubmitOptions (the
// plan, the image step, the follow) and, for --logs and --network, parsed into their enums.
// What needs parsing first (the NAME=VALUE lists, the search for the project file, the
// registry connection) stays text here until submit_options.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "tool/cli/override_flags.h"
#include "tool/cli/project_flags.h"
#include "tool/cli/registry_flags.h"
#include "tool/submit/submit.h"

namespace gkebuild::cli {

struct SubmitFlags {
  submit::SubmitOptions options;
  ProjectFlags project;
  RegistryFlags registry;
  std::string kubeconfig;
  OverrideFlags overrides;  // --accelerator, --sweep, --set, --values, --queue, --parallelism (shared with render)
  std::vector<std::string> images;
  std::vector<std::string> secrets;  // --secret id=ID,src=FILE|env=VAR
  bool verbose = false;
  bool max_in_flight_given = false;  // --max-in-flight on the command line: a local run honours it
};

// Adds the experiment argument and every flag of submit to `command`.
void add_submit_flags(CLI::App& command, SubmitFlags& flags);

// The options the parsed flags give, without the console (process_console.h). Throws
// SourceError for a malformed --sweep, --set or --image.
submit::SubmitOptions submit_options(const SubmitFlags& flags);

}  // namespace gkebuild::cli
