// Runs a plan's Jobs on this machine, up to N at once in the plan's order, each on a thread of
// its own (each completion of an Indexed Job is one container, run in turn, with
// JOB_COMPLETION_INDEX and GKEBUILD_SEED set as the Job controller would), reporting states and
// log lines like the cluster follower: the record, the view and the Jobs' progress are changed
// under one lock, so log lines never interleave and run.json is written whole. The pods of a
// multi-node Job run together, one container per node.
#pragma once

#include <nlohmann/json.hpp>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tool/steps/local_runner/local_run.h"
#include "tool/submit/follow_view.h"
#include "tool/submit/follower.h"
#include "tool/submit/point_stopper.h"
#include "tool/steps/plan/run_plan.h"
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
  // `interrupted` set (SIGINT, SIGTERM): no Job starts any more, and every running container
  // gets SIGTERM, then SIGKILL after its Job's terminationGracePeriodSeconds (10 s when not set);
  // `forced` set: SIGKILL at once. Either way the containers, their bundles and mounts are removed
  // and the Jobs not finished are recorded stopped; a Job whose containers all exited 0 is
  // succeeded, stopped or not.
  LocalJobs(const plan::RunPlan& plan, std::filesystem::path layout, std::string image_digest,
            local_runner::LocalDirs dirs, bool gpus, LocalNetwork network, const std::atomic<bool>* interrupted,
            const std::atomic<bool>* forced = nullptr);
  FollowEnd run(RunSink& sink, FollowView& view);
  // The values of the Jobs' secretKeyRef variables (kept by the caller for the whole run).
  void use_secret(const RunSecret& secret) { secret_ = &secret; }
  // Up to `points` Jobs at once (local_parallel.h; default 1). With GPUs and `gpus` (the host's
  // GPU indexes) not empty, each Job is given GPUs of its own, its gpus times its nodes of them
  // (all of them when it wants more than there are), and waits while fewer are free.
  void run_at_once(int points, std::vector<int> gpus);
  // The experiment's earlyStopping: rule or its search's halving, fed every result line: a point
  // it stops is stopped as Ctrl-C stops a container (SIGTERM, SIGKILL after the grace period) and
  // recorded `stopped` with the rule's reason; the other points go on.
  void stop_points_with(std::shared_ptr<PointStopper> stopper) { stopper_ = std::move(stopper); }

 private:
  // The container of completion `completion` of a Job's pod template's first container:
  // image, env, command and args expanded, working dir, GPUs, limits (no name, network or stop).
  // `gpus`: the GPUs it is given (none: all the host's, when the run has GPUs).
  local_runner::ContainerSpec container_spec(const nlohmann::json& container, int completion,
                                             const std::vector<int>& gpus) const;
  // The GPUs Job `index` takes while it runs: 0 without GPUs to share out.
  int gpus_wanted(std::size_t index) const;
  // Runs Job `index` (on its own thread) and gives its GPUs back; an error fails the Job and
  // stops the run from starting more.
  void run_one(std::size_t index, const std::vector<int>& gpus, RunSink& sink, FollowView& view);
  // Takes the GPUs Job `index` needs when a place is free for it; nullopt: it waits.
  std::optional<std::vector<int>> take_place(std::size_t index, std::size_t running);
  void run_job(std::size_t index, const std::vector<int>& gpus, RunSink& sink, FollowView& view);
  // A multi-node Job: its N containers at once, on one private network where each pod's name
  // <job>-<rank>.<service> (and <job>-<rank>) resolves, as in the cluster; one that fails
  // stops the others and fails the Job (its podFailurePolicy).
  void run_group(std::size_t index, const std::vector<int>& gpus, RunSink& sink, FollowView& view);
  // A log line of Job `index`, to the stopping rule; with mutex_ held.
  void observe(std::size_t index, const std::string& line);
  // Ends Job `index` after its container was stopped: by the stopping rule (its reason), else by
  // a signal to gkebuild; with mutex_ held.
  void record_stop(std::size_t index, const std::string& reason);
  // Shows and records every Job's state; called with mutex_ held.
  void publish(RunSink& sink, FollowView& view);
  // Ends every Job that has not finished in `state`: `started_reason` for those with a
  // container started (or being started), `unstarted_reason` for the others.
  void end_unfinished(JobState state, const std::string& started_reason, const std::string& unstarted_reason);

  const plan::RunPlan& plan_;
  std::filesystem::path layout_;
  std::string image_;
  local_runner::LocalDirs dirs_;
  bool gpus_;
  LocalNetwork network_;
  const std::atomic<bool>* interrupted_;
  const std::atomic<bool>* forced_;
  std::vector<JobProgress> jobs_;
  const RunSecret* secret_ = nullptr;
  int points_ = 1;
  std::vector<int> host_gpus_;  // the GPUs shared out among the Jobs; empty: each gets all (or none)
  std::shared_ptr<PointStopper> stopper_;
  // Each Job's containers' stop flag: set by the stopping rule, or for all by `interrupted`.
  std::deque<std::atomic<bool>> stop_;
  std::vector<std::string> stopped_why_;  // the rule's reason, for a Job it stopped
  // jobs_, the sink, the view and what follows, from every running Job's thread.
  std::mutex mutex_;
  std::condition_variable changed_;  // a Job ended: its place and GPUs are free
  std::set<int> free_gpus_;
  std::vector<std::size_t> ended_;   // Jobs whose threads are done, to be joined
  std::exception_ptr error_;         // the first error a Job's thread met
  std::string error_text_;           // and what it said
};

}  // namespace gkebuild::submit
