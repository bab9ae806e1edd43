// What runs, status, logs and delete share: the RUN argument, the project and cluster
// flags, and the action that finds the project and runs the command.
#pragma once

#include <iostream>
#include <memory>
#include <string>

#include "base/exit_codes.h"
#include "tool/cli/command.h"
#include "tool/cli/latest_run.h"
#include "tool/cli/output_flags.h"
#include "tool/cli/process_console.h"
#include "tool/cli/project_flags.h"
#include "tool/cli/request_log.h"
#include "tool/cli/verbosity_flags.h"
#include "tool/submit/run_commands.h"

namespace gkebuild::cli {

struct RunCommandFlags {
  submit::RunCommandOptions options;
  bool verbose = false;
  ProjectFlags project;
  OutputFlags output{"text"};  // status: text or json
  std::string kubeconfig;
};

// kLatest: RUN may be left out for the project's latest run (status, logs); kRequired: delete.
enum class RunArgument { kRequired, kLatest };

inline void add_run_argument(CLI::App* command, RunCommandFlags& flags, RunArgument run = RunArgument::kLatest) {
  if (run == RunArgument::kRequired) {
    command->add_option("run", flags.options.run, "the run's name, or a unique prefix of it")->required();
  } else {
    command->add_option("run", flags.options.run,
                        "the run's name, or a unique prefix of it (default: the project's latest run)");
  }
  command->add_option("--kubeconfig", flags.kubeconfig, "this kubeconfig file only (default: KUBECONFIG, ~/.kube/config)");
  command->add_option("--context", flags.options.kubeconfig.context, "kubeconfig context (default: the run's)");
}

// `short_file` is kNo for logs, whose -f is --follow.
inline void set_run_action(CLI::App* command, Action& action, std::shared_ptr<RunCommandFlags> flags,
                           Outcome (*run)(const submit::RunCommandOptions&), ShortFile short_file = ShortFile::kYes) {
  add_project_flags(*command, flags->project, short_file);
  add_quiet_flag(*command, flags->output.quiet);
  add_verbose_flag(*command, flags->verbose);
  // `runs` has no RUN; status and logs without one take the latest (delete requires it).
  const bool takes_run = command->get_option_no_throw("run") != nullptr;
  command->callback([&action, flags, run, takes_run, name = command->get_name()] {
    action = [flags, run, takes_run, name] {
      auto& options = flags->options;
      if (flags->verbose) log_cluster_requests();
      if (flags->output.format == "json") options.json = true;
      options.project_dir = project_dir(flags->project);
      if (takes_run && options.run.empty())
        options.run = latest_run_name(options.project_dir, name, flags->output.quiet, std::cerr);
      if (!flags->kubeconfig.empty()) options.kubeconfig.kubeconfig = flags->kubeconfig;
      options.console = process_console();
      return exit_code(run(options));
    };
  });
}

}  // namespace gkebuild::cli
