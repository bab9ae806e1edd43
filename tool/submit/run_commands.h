// The follow-up commands on recorded runs: `gkebuild runs`, `status RUN`, `logs RUN [-f]`
// and `delete RUN`. They read .gkebuild/runs/ of the project; status, logs -f and delete
// also talk to the run's cluster (the context and namespace its record names).
#pragma once

#include <filesystem>
#include <string>

#include "base/error.h"
#include "tool/core/kube/cluster_api.h"
#include "tool/core/kube/kubeconfig.h"
#include "tool/submit/console.h"

namespace gkebuild::submit {

struct RunCommandOptions {
  std::filesystem::path project_dir = ".";
  std::string run;  // a run's name or a unique prefix of one
  kube::KubeconfigOptions kubeconfig;
  bool json = false;     // status -o json: run.json as it is now
  bool follow = false;   // logs -f
  bool refresh = true;   // status: ask the cluster for an unfinished run
  Console console;
};

Outcome list_runs_command(const RunCommandOptions& options);
// Failed when a Job of the run failed.
Outcome status_command(const RunCommandOptions& options);
// Failed when asked to follow a local run that did not finish (there is nothing to follow).
Outcome logs_command(const RunCommandOptions& options);
// A cluster run's Jobs are deleted; a local run's runner, if it still goes, is stopped (with
// its containers) and what it left is removed (local_run_process.h).
Outcome delete_command(const RunCommandOptions& options);

// The same, with the run's cluster reached through `connect` (the forms above connect over
// HTTP; unit tests give an in-memory cluster).
Outcome status_command(const RunCommandOptions& options, const kube::ConnectCluster& connect);
Outcome logs_command(const RunCommandOptions& options, const kube::ConnectCluster& connect);
Outcome delete_command(const RunCommandOptions& options, const kube::ConnectCluster& connect);

}  // namespace gkebuild::submit
