// `gkebuild submit EXPERIMENT`: image -> push -> render -> apply -> follow, with the
// run recorded under .gkebuild/runs/RUN/. Succeeded when every Job succeeded, failed when
// one failed, interrupted when Ctrl-C stopped the follow; bad input throws before anything
// is applied.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "base/error.h"
#include "tool/core/kube/cluster_api.h"
#include "tool/core/kube/kubeconfig.h"
#include "tool/submit/console.h"
#include "tool/submit/follower.h"
#include "tool/submit/image_step.h"
#include "tool/submit/local_container.h"
#include "tool/steps/plan/run_plan.h"

namespace gkebuild::submit {

// What a submit is given, in the parts its steps take: the CLI binds its flags straight into
// them, and each step is handed its part, to which the submit adds what the run decides (its
// id, its image references, its namespace and Jobs).
struct SubmitOptions {
  std::filesystem::path project_file = "gkebuild.yaml";
  plan::PlanRequest plan;         // the experiment, --accelerator, --queue, --parallelism, --sweep, --set, --values
  ImageStepOptions images;  // --image, --workloads-build, --no-build, --insecure-registry, --ca-file
  FollowOptions follow;     // --detach, --max-in-flight, --logs
  LocalNetwork network = LocalNetwork::Private;  // --network, for --local
  // --max-in-flight as given (0: not given), for --local: how many points run here at once.
  int local_in_flight = 0;
  // --secret-env NAME[,NAME]: more variables for the experiment's secretEnv (read at submit from
  // this process's environment; they reach the Jobs through the run's Secret).
  std::vector<std::string> secret_env;
  kube::KubeconfigOptions kubeconfig;  // --kubeconfig, --context (default: the project's)
  bool dry_run = false;
  bool no_check = false;  // skip the cluster check that refuses Jobs which could never be scheduled
  bool local = false;
  // --managed IMAGE: the run's controller (managed_run.h) runs this image of gkebuild in the cluster
  // and follows the run there; this submit returns once it is started. "" = follow from here.
  std::string controller_image;
  bool quiet = false;  // -q: no plan summary or notes on the console's `err` (errors and refusals still)
  Console console;
};

// The image step's part of `options`, its notes going to the console's `err` unless quiet.
ImageStepOptions image_step(const SubmitOptions& options);

// Throws SourceError (and the build's, push's and API's errors) for the CLI to report.
Outcome run_submit(const SubmitOptions& options);
// The same with the cluster reached through `connect` (unit tests: an in-memory cluster); the
// kubeconfig is read as always, for the context and namespace. The cluster check before the
// submit still talks HTTP to the context's server (--no-check skips it).
Outcome run_submit(const SubmitOptions& options, const kube::ConnectCluster& connect);

}  // namespace gkebuild::submit
