// `gkebuild submit EXPERIMENT`: image, push, render, apply and follow (tool/submit).
#include <unistd.h>

#include <iostream>
#include <memory>

#include "cli/command.h"
#include "submit/interrupt.h"
#include "submit/submit.h"

namespace gkebuild::cli {
namespace {

void setup(CLI::App& app, Action& action) {
  auto options = std::make_shared<submit::SubmitOptions>();
  auto kubeconfig = std::make_shared<std::string>();
  auto* command = app.add_subcommand("submit", "Build, push, render and apply an experiment's Jobs, then follow "
                                               "them to their results (or run them here with --local)");
  command->add_option("experiment", options->experiment, "the experiment of gkebuild.yaml")->required();
  command->add_option("-f,--file", options->project_file, "the project file")->capture_default_str();
  command->add_option("--accelerator", options->accelerators, "accelerator labels replacing the experiment's list")
      ->delimiter(',');
  command->add_option("--sweep", options->sweeps, "NAME=V1,V2: replace (or add) a sweep axis (repeatable)");
  command->add_option("--set", options->sets, "set a template value: key.path=value (repeatable)");
  command->add_option("--values", options->values_files, "a YAML or JSON values file (repeatable, merged in order)");
  command->add_option("--image", options->images, "NAME=REPO@sha256:…: run this pushed image instead of building");
  command->add_option("--workloads-build", options->workloads_build,
                      "where compiled workload binaries are (default: the project's and this folder's build/)");
  command->add_flag("--no-build", options->no_build, "use the digests of the last push (.gkebuild/images.json)");
  command->add_flag("--dry-run", options->dry_run, "print the YAML that would be applied; check it with dryRun=All");
  command->add_flag("--detach", options->detach, "return once the Jobs are created");
  command->add_flag("--local", options->local, "run the Jobs on this machine under runc");
  command->add_option("--network", options->network,
                      "with --local: private (a network namespace per container, loopback only) or host")
      ->check(CLI::IsMember({"private", "host"}))
      ->capture_default_str();
  command->add_option("--max-in-flight", options->max_in_flight, "unfinished Jobs at once while following")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  command->add_option("--kubeconfig", *kubeconfig, "this kubeconfig file only (default: KUBECONFIG, ~/.kube/config)");
  command->add_option("--context", options->kubeconfig.context, "kubeconfig context (default: the project's)");
  command->add_option("--insecure-registry", options->insecure_registries, "HOST:PORT that may use plain HTTP");
  command->add_option("--ca-file", options->ca_file, "PEM file of CAs to verify the registry with");
  command->callback([&action, options, kubeconfig] {
    action = [options, kubeconfig] {
      if (!kubeconfig->empty()) options->kubeconfig.kubeconfig = *kubeconfig;
      options->out = &std::cout;
      options->err = &std::cerr;
      options->terminal = ::isatty(STDERR_FILENO) != 0;
      options->terminal_rows = submit::terminal_rows();
      options->interrupted = &submit::install_interrupt_handler();
      return submit::run_submit(*options);
    };
  });
}

const CommandRegistration registration(40, setup);

}  // namespace
}  // namespace gkebuild::cli
