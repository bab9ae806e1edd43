// Follows a run on the cluster until every Job has finished: creates the Jobs (at most
// `max_in_flight` unfinished at once), watches the run's Jobs and Pods (list then
// watch, resuming after drops and 410s; with a Kueue queue also the namespace's Kueue
// Workloads), watches the events of its pods, reads pods' logs as `logs` says (each at most
// once: streamed while the pod runs, at most `max_log_streams` at once; a pod that waits
// for a free stream has its log read whole once one is free), and reports every change to a
// RunSink (the run record) and to the follow view. The watches and log streams run on the
// cluster's event loop (kube::ClusterApi; over HTTP, the Kubernetes client's: one thread, and
// over HTTP/2 one connection, however many pods are followed); the calling thread creates and
// publishes.
#pragma once

#include <nlohmann/json.hpp>

#include <atomic>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tool/core/kube/cluster_api.h"
#include "tool/core/kube/objects.h"
#include "tool/submit/follow_view.h"
#include "tool/submit/job_progress.h"
#include "tool/submit/point_stopper.h"
#include "tool/submit/recovery.h"

namespace gkebuild::submit {

// Where the follower's findings go (the run record).
class RunSink {
 public:
  virtual ~RunSink() = default;
  // Every Job as it stands, after any change.
  virtual void jobs_changed(const std::vector<JobProgress>& jobs) = 0;
  // One log line of one of `job`'s pods, without its prefix; `index` is the pod's completion
  // index in an Indexed Job (a multi-node Job's node rank), else -1.
  virtual void log_line(const std::string& job, const std::string& line, int index) = 0;
  // One result line of `job` that came in a pod's termination message (its log is not read).
  virtual void result_line(const std::string& job, const std::string& line, int index) = 0;
};

// Which pods' logs are read.
enum class LogPolicy {
  All,     // every pod's
  // The logs of the first `max_log_streams` pods to run are read (streamed while they run, so a
  // sweep's first Jobs show their output, and a small sweep's logs are all read); any other
  // pod's results come from its termination message (gkebuild's
  // workloads write them there), and its log is read only when it failed or its results did
  // not all come that way. A 10,000-Job sweep then costs no request per Job for its logs.
  Failed,
};

// The part of the submit options the follow takes: the CLI fills `follow` (--detach),
// `max_in_flight` and `logs`; the submit adds its run's namespace, id, Jobs and queue.
struct FollowOptions {
  std::string namespace_name;
  std::string run_id;
  std::deque<kube::PreparedCreate> to_create;  // Jobs still to create, in order
  int max_in_flight = 50;
  std::string queue;  // the run's Kueue queue, if any: Workloads are watched to say why Jobs wait
  bool follow = true;                          // false: create and return (--detach)
  const std::atomic<bool>* interrupted = nullptr;  // Ctrl-C: stop following, leave the run
  int watch_timeout_seconds = 300;
  int max_log_streams = 8;  // log streams at once: a 10,000-Job sweep must not mean 10,000
  LogPolicy logs = LogPolicy::Failed;
  // Given, it hears of the Jobs each round of creates made (name and uid), after the round
  // and before anything else happens: the run's Secret takes them as owners.
  std::function<void(const std::vector<std::pair<std::string, std::string>>&)> created;
  // Job name -> what the follower may do when that Job is disrupted or finds no capacity
  // (recovery.h): recreate it whole (gang restart) or as its next fallback: alternative.
  std::map<std::string, JobRecovery> recovery;
  // The experiment's earlyStopping: rule or its search's halving, fed every result line; a point
  // it stops is deleted and recorded `stopped` with the rule's reason. Null: none.
  std::shared_ptr<PointStopper> early_stopping;
  // Given, it hears of a Job (name, uid) just before the follower deletes it to recreate it or
  // because it was stopped early: the run's Secret must not go with it.
  std::function<void(const std::string&, const std::string&)> retiring;
};

enum class FollowEnd { Finished, Interrupted, Detached };

// `jobs`: every Job of the run in display order, as known so far (from the record, when
// re-attaching; their pods' log_lines say what was already delivered).
FollowEnd follow_run(kube::ClusterApi& cluster, std::vector<JobProgress>& jobs, FollowOptions options, RunSink& sink,
                     FollowView& view);

}  // namespace gkebuild::submit
