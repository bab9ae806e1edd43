// Runs a plan's Jobs on this machine, one container at a time (each completion of an
// Indexed Job is one container, with JOB_COMPLETION_INDEX and GKEBUILD_SEED set as the
// Job controller would), reporting states and log lines like the cluster follower. The
// pods of a multi-node Job run together, one container per node.
#pragma once

#include <nlohmann/json.hpp>

#include <atomic>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "tool/steps/local_runner/local_run.h"
#include "tool/submit/follow_view.h"
#include "tool/submit/follower.h"
#include "tool/submit/run_plan.h"
#include "tool/submit/run_secret.h"

namespace gkebuild::submit {

// The env of a Job's container for completion `index`: values as written, the completion index
// where a fieldRef asks for it, and the run's secret values where a secretKeyRef names them
// (`secret`, or none; a secretKeyRef it cannot answer is an error: a local run has no cluster).
std::vector<std::pair<std::string, std::string>> container_env(const nlohmann::json& container, int index,
                                                               const RunSecret* secret = nullptr);
// Kubernetes' $(VAR) expansion of command and args: a defined VAR is replaced, $$ is a
// literal $, anything else is left as written.
std::string expand_variables(const std::string& text, const std::vector<std::pair<std::string, std::string>>& env);

// The network of a local run's containers (--network).
enum class LocalNetwork {
  Private,  // each container a network namespace of its own, loopback only
  Host,     // the host's network, which a workload downloading its data needs
};

class LocalJobs {
 public:
  // Each container gets its Job's CPU and memory limits and the network `network` says.
  // `interrupted` set (SIGINT, SIGTERM): the running container gets SIGTERM, then SIGKILL after
  // its Job's terminationGracePeriodSeconds (10 s when not set); `forced` set: SIGKILL at once.
  // Either way the container, its bundle and mount are removed and the Jobs not finished are
  // recorded stopped; a Job whose containers all exited 0 is succeeded, stopped or not.
  LocalJobs(const RunPlan& plan, std::filesystem::path layout, std::string image_digest,
            local_runner::LocalDirs dirs, bool gpus, LocalNetwork network, const std::atomic<bool>* interrupted,
            const std::atomic<bool>* forced = nullptr);
  FollowEnd run(RunSink& sink, FollowView& view);
  // The values of the Jobs' secretKeyRef variables (kept by the caller for the whole run).
  void use_secret(const RunSecret& secret) { secret_ = &secret; }

 private:
  // The container of completion `completion` of a Job's pod template's first container:
  // image, env, command and args expanded, working dir, GPUs, limits (no name, network or stop).
  local_runner::ContainerSpec container_spec(const nlohmann::json& container, int completion) const;
  void run_job(std::size_t index, RunSink& sink, FollowView& view);
  // A multi-node Job: its N containers at once, on one private network where each pod's name
  // <job>-<rank>.<service> (and <job>-<rank>) resolves, as in the cluster; one that fails
  // stops the others and fails the Job (its podFailurePolicy).
  void run_group(std::size_t index, RunSink& sink, FollowView& view);
  void publish(RunSink& sink, FollowView& view);
  // Ends every Job that has not finished in `state`: `started_reason` for those with a
  // container started (or being started), `unstarted_reason` for the others.
  void end_unfinished(JobState state, const std::string& started_reason, const std::string& unstarted_reason);

  const RunPlan& plan_;
  std::filesystem::path layout_;
  std::string image_;
  local_runner::LocalDirs dirs_;
  bool gpus_;
  LocalNetwork network_;
  const std::atomic<bool>* interrupted_;
  const std::atomic<bool>* forced_;
  std::vector<JobProgress> jobs_;
  const RunSecret* secret_ = nullptr;
};

}  // namespace gkebuild::submit
