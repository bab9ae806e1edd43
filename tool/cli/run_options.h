// What runs, status, logs and delete share: the RUN argument and the cluster options,
// and the action that finds the project from the current folder and runs the command.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "cli/command.h"
#include "imageproject/project_images.h"
#include "submit/interrupt.h"
#include "submit/run_commands.h"

namespace gkebuild::cli {

struct RunCommandFlags {
  submit::RunCommandOptions options;
  std::string kubeconfig;
};

inline void add_run_argument(CLI::App* command, RunCommandFlags& flags) {
  command->add_option("run", flags.options.run, "the run's name, or a unique prefix of it")->required();
  command->add_option("--kubeconfig", flags.kubeconfig, "this kubeconfig file only (default: KUBECONFIG, ~/.kube/config)");
  command->add_option("--context", flags.options.kubeconfig.context, "kubeconfig context (default: the run's)");
}

inline void set_run_action(CLI::App* command, Action& action, std::shared_ptr<RunCommandFlags> flags,
                           int (*run)(const submit::RunCommandOptions&)) {
  command->callback([&action, flags, run] {
    action = [flags, run] {
      auto& options = flags->options;
      const auto project_file = imageproject::find_project_file(std::filesystem::current_path());
      if (!project_file.empty()) options.project_dir = project_file.parent_path();
      if (!flags->kubeconfig.empty()) options.kubeconfig.kubeconfig = flags->kubeconfig;
      options.out = &std::cout;
      options.err = &std::cerr;
      options.terminal = ::isatty(STDERR_FILENO) != 0;
      options.terminal_rows = submit::terminal_rows();
      options.interrupted = &submit::install_interrupt_handler();
      return run(options);
    };
  });
}

}  // namespace gkebuild::cli
