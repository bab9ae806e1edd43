// `gkebuild controller RUN_ID`: what the controller Job of `submit --managed` runs in the cluster
// (tool/submit/managed_run.h): follows the run its state ConfigMap describes, with the pod's
// in-cluster credentials (or a kubeconfig, as every command: the namespace is the context's).
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>

#include "base/dns_name.h"
#include "base/error.h"
#include "base/exit_codes.h"
#include "base/printable.h"
#include "base/private_dirs.h"
#include "tool/cli/command.h"
#include "tool/core/kube/http_cluster_api.h"
#include "tool/steps/cluster/access.h"
#include "tool/submit/interrupt.h"
#include "tool/submit/managed_run.h"

namespace gkebuild::cli {
namespace {

namespace fs = std::filesystem;

struct ControllerFlags {
  std::string run_id;
  std::string kubeconfig_file;
  kube::KubeconfigOptions kubeconfig;
};

int run_controller(const ControllerFlags& flags) {
  if (!is_dns_subdomain(flags.run_id) || flags.run_id.find('.') != std::string::npos)
    throw Error(ErrorKind::kBadInput, "gkebuild controller: " + in_quotes(flags.run_id) + " is not a run id");
  kube::KubeconfigOptions kubeconfig = flags.kubeconfig;
  if (!flags.kubeconfig_file.empty()) kubeconfig.kubeconfig = flags.kubeconfig_file;
  const auto access = cluster::cluster_access(kubeconfig, "");
  const auto cluster = kube::connect_over_http(access);
  submit::ControllerOptions options;
  options.namespace_name = access.namespace_name;
  options.run_id = flags.run_id;
  // Scratch for the record while it is followed: the pod's emptyDir at /tmp (HOME), never shared.
  options.work_dir = private_folder(fs::temp_directory_path() / ("gkebuild-controller-" + flags.run_id));
  options.interrupted = &submit::install_interrupt_handler();
  return exit_code(submit::run_controller(*cluster, options, std::cout, std::cerr));
}

void setup(CLI::App& app, Action& action) {
  auto flags = std::make_shared<ControllerFlags>();
  auto* command = app.add_subcommand("controller", "Follow a submit --managed run from inside the cluster "
                                                   "(what its controller Job runs)");
  command->group("");  // not for people: the controller Job runs it
  command->add_option("run-id", flags->run_id, "the run's id (its gkebuild.io/run label)")->required();
  command->add_option("--kubeconfig", flags->kubeconfig_file, "this kubeconfig file only (default: in-cluster)");
  command->add_option("--context", flags->kubeconfig.context, "kubeconfig context");
  command->callback([&action, flags] { action = [flags] { return run_controller(*flags); }; });
}

const CommandRegistration registration(90, "controller", setup);

}  // namespace
}  // namespace gkebuild::cli
