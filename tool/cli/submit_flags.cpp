#include "tool/cli/submit_flags.h"

#include "base/source_error.h"
#include "tool/cli/choice_option.h"
#include "tool/cli/name_value.h"
#include "tool/cli/override_flags.h"
#include "tool/cli/secret_flags.h"
#include "tool/cli/verbosity_flags.h"

namespace gkebuild::cli {
namespace {

const Choices<submit::LogPolicy> kLogPolicies{{"failed", submit::LogPolicy::Failed}, {"all", submit::LogPolicy::All}};
const Choices<submit::LocalNetwork> kLocalNetworks{{"private", submit::LocalNetwork::Private},
                                                   {"host", submit::LocalNetwork::Host}};

// The experiment and what to plan: its accelerators, sweep, values, queue and parallelism.
void add_plan_flags(CLI::App& command, SubmitFlags& flags) {
  command.add_option("experiment", flags.options.plan.experiment, "the experiment of gkebuild.yaml")->required();
  add_project_flags(command, flags.project);
  add_override_flags(command, flags.overrides);
}

}  // namespace

// The flags are added in the order --help lists them.
void add_submit_flags(CLI::App& command, SubmitFlags& flags) {
  submit::SubmitOptions& options = flags.options;
  add_plan_flags(command, flags);
  command.add_option("--secret-env", options.secret_env,
                     "NAME[,NAME]: pass these variables of this environment to the Jobs through the run's "
                     "Secret, never a file (repeatable; adds to the experiment's secretEnv, and is the consent each "
                     "name there needs)");
  command.add_option("--secret", flags.secrets,
                     "id=ID,src=FILE or id=ID,env=VAR: a build secret for the image's RUN --mount=type=secret,id=ID "
                     "(repeatable; as gkebuild image --secret, and the consent an image's secrets: entry with env: "
                     "needs)");
  command.add_option("--image", flags.images, "NAME=REPO@sha256:…: run this pushed image instead of building");
  command.add_option("--workloads-build", options.images.workloads_build,
                     "where prebuilt workload binaries are (default: gkebuild builds the CMake target of the "
                     "project's CMakeLists.txt or `source:`, else looks in the project's and this folder's build/)");
  command.add_flag("--no-build", options.images.no_build, "use the digests of the last push (.gkebuild/images.json)");
  command.add_flag("--dry-run", options.dry_run, "print the YAML that would be applied; check it with dryRun=All");
  command.add_flag("--no-check", options.no_check,
                   "do not check first that the cluster can schedule the Jobs (see gkebuild cluster check)");
  command.add_flag_callback("--detach", [&options] { options.follow.follow = false; },
                            "return once the Jobs are created");
  command.add_option("--managed", options.controller_image,
                     "IMAGE: follow the run from a controller in the cluster, running this image of gkebuild "
                     "(gang restarts and fallback: alternatives go on with this machine off; see docs/clusters.md)");
  add_quiet_flag(command, options.quiet);  // no plan summary: --dry-run -q prints only the YAML
  add_verbose_flag(command, flags.verbose);  // the Kubernetes API requests
  command.add_flag("--local", options.local, "run the Jobs on this machine under runc");
  add_choice_option(command, "--network", options.network, kLocalNetworks,
                    "with --local: private (a network namespace per container, loopback only) or host");
  command.add_option("--max-in-flight", options.follow.max_in_flight,
                     "unfinished Jobs at once while following (not with a Kueue queue); with --local, points "
                     "run here at once (default: one per GPU, 1 without GPUs)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str()
      ->each([&flags](const std::string&) { flags.max_in_flight_given = true; });
  add_choice_option(command, "--logs", options.follow.logs, kLogPolicies,
                    "which pods' logs to read: failed (results come from the pods' termination messages; "
                    "logs of the first pods to run, of failed pods and of pods whose results did not fit) "
                    "or all");
  command.add_option("--kubeconfig", flags.kubeconfig,
                     "this kubeconfig file only (default: KUBECONFIG, ~/.kube/config)");
  command.add_option("--context", options.kubeconfig.context, "kubeconfig context (default: the project's)");
  add_registry_connection_flags(command, flags.registry);
}

submit::SubmitOptions submit_options(const SubmitFlags& flags) {
  submit::SubmitOptions options = flags.options;
  options.project_file = project_file(flags.project);
  options.plan.overrides = parsed_overrides(flags.overrides);
  options.images.given =
      parse_name_value_map("--image", flags.images, "NAME=REFERENCE, e.g. gemm=repo/gemm@sha256:…");
  options.images.session = session_options(flags.registry);
  options.images.build_secrets = read_secret_flags(flags.secrets, "gkebuild submit");
  if (!flags.kubeconfig.empty()) options.kubeconfig.kubeconfig = flags.kubeconfig;
  if (flags.max_in_flight_given) options.local_in_flight = options.follow.max_in_flight;
  return options;
}

}  // namespace gkebuild::cli
