// `gkebuild submit EXPERIMENT`: image -> push -> render -> apply -> follow, with the
// run recorded under .gkebuild/runs/RUN/. Exit code: 0 when every Job succeeded, 1 when
// one failed, 2 for bad input (then nothing was applied), 130 when Ctrl-C stopped the follow.
#pragma once

#include <atomic>
#include <filesystem>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "kube/kubeconfig.h"

namespace gkebuild::submit {

struct SubmitOptions {
  std::filesystem::path project_file = "gkebuild.yaml";
  std::string experiment;
  std::vector<std::string> accelerators;
  std::vector<std::string> sweeps;
  std::vector<std::string> sets;
  std::vector<std::string> values_files;
  std::vector<std::string> images;  // --image NAME=REF
  std::string workloads_build;  // where compiled workload binaries are (default: the project's build/)
  bool no_build = false;
  bool dry_run = false;
  bool detach = false;
  bool local = false;
  // --network, for --local: "private" (each container has a network namespace of its own,
  // loopback only) or "host" (the host's network, which a workload downloading data needs).
  std::string network = "private";
  int max_in_flight = 50;
  std::vector<std::string> insecure_registries;
  std::string ca_file;
  kube::KubeconfigOptions kubeconfig;  // --kubeconfig, --context (default: the project's)
  std::ostream* out = nullptr;  // dry-run YAML and log lines
  std::ostream* err = nullptr;  // notes and the status view
  bool terminal = false;        // `err` is a terminal: redraw the status in place
  int terminal_rows = 24;
  const std::atomic<bool>* interrupted = nullptr;  // set by the Ctrl-C handler
};

// Throws SourceError (and the build's, push's and API's errors) for the CLI to report.
int run_submit(const SubmitOptions& options);

}  // namespace gkebuild::submit
