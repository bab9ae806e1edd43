// `gkebuild submit EXPERIMENT`: image -> push -> render -> apply -> follow, with the
// run recorded under .gkebuild/runs/RUN/. Succeeded when every Job succeeded, failed when
// one failed, interrupted when Ctrl-C stopped the follow; bad input throws before anything
// is applied.
#pragma once

#include <atomic>
#include <filesystem>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "base/error.h"
#include "tool/core/kube/kubeconfig.h"
#include "tool/steps/render/values.h"
#include "tool/submit/run_plan.h"

namespace gkebuild::submit {

struct SubmitOptions {
  std::filesystem::path project_file = "gkebuild.yaml";
  std::string experiment;
  std::vector<std::string> accelerators;
  std::string queue;  // --queue: a Kueue LocalQueue instead of the experiment's own
  int parallelism = 0;  // --parallelism: the sweep as one Indexed Job per accelerator
  std::vector<SweepOverride> sweeps;
  std::vector<render::Assignment> sets;
  std::vector<std::string> values_files;
  // --secret-env NAME[,NAME]: more variables for the experiment's secretEnv (read at submit from
  // this process's environment; they reach the Jobs through the run's Secret).
  std::vector<std::string> secret_env;
  std::map<std::string, std::string> images;  // image name -> a pushed reference (pinned by digest) to run
  std::string workloads_build;  // where compiled workload binaries are (default: the project's build/)
  bool no_build = false;
  bool dry_run = false;
  bool no_check = false;  // skip the cluster check that refuses Jobs which could never be scheduled
  bool detach = false;
  bool local = false;
  // --network, for --local: "private" (each container has a network namespace of its own,
  // loopback only) or "host" (the host's network, which a workload downloading data needs).
  std::string network = "private";
  int max_in_flight = 50;
  // --logs: "failed" (results from the pods' termination messages; logs read for the first
  // pods to run, failed pods, and pods whose results did not fit) or "all" (every pod's log).
  std::string logs = "failed";
  std::vector<std::string> insecure_registries;
  std::string ca_file;
  kube::KubeconfigOptions kubeconfig;  // --kubeconfig, --context (default: the project's)
  std::ostream* out = nullptr;  // dry-run YAML and log lines
  std::ostream* err = nullptr;  // notes and the status view
  bool quiet = false;           // -q: no plan summary or notes on `err` (errors and refusals still)
  bool terminal = false;        // `err` is a terminal: redraw the status in place
  int terminal_rows = 24;
  const std::atomic<bool>* interrupted = nullptr;  // set by the Ctrl-C handler
};

// Throws SourceError (and the build's, push's and API's errors) for the CLI to report.
Outcome run_submit(const SubmitOptions& options);

}  // namespace gkebuild::submit
