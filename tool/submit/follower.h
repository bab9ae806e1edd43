// Follows a run on the cluster until every Job has finished: creates the Jobs (at most
// `max_in_flight` unfinished at once), watches the run's Jobs and Pods (list then
// watch, resuming after drops and 410s; with a Kueue queue also the namespace's Kueue
// Workloads), watches the events of its pods, reads each
// pod's log exactly once (streamed while the pod runs, at most `max_log_streams` at once:
// a pod that waits for a free stream has its log read whole once one is free), and reports
// every change to a RunSink (the run record) and to the follow view. The watches and log
// streams run on the Kubernetes client's event loop: one thread, and over HTTP/2 one
// connection, however many pods are followed; the calling thread creates and publishes.
#pragma once

#include <nlohmann/json.hpp>

#include <atomic>
#include <deque>
#include <string>
#include <vector>

#include "kube/client.h"
#include "submit/follow_view.h"
#include "submit/job_progress.h"

namespace gkebuild::submit {

// Where the follower's findings go (the run record).
class RunSink {
 public:
  virtual ~RunSink() = default;
  // Every Job as it stands, after any change.
  virtual void jobs_changed(const std::vector<JobProgress>& jobs) = 0;
  // One log line of one of `job`'s pods, without its prefix.
  virtual void log_line(const std::string& job, const std::string& line) = 0;
};

struct FollowOptions {
  std::string namespace_name;
  std::string run_id;
  std::deque<nlohmann::json> to_create;  // Jobs still to create, in order
  int max_in_flight = 50;
  std::string queue;  // the run's Kueue queue, if any: Workloads are watched to say why Jobs wait
  bool follow = true;                          // false: create and return (--detach)
  const std::atomic<bool>* interrupted = nullptr;  // Ctrl-C: stop following, leave the run
  int watch_timeout_seconds = 300;
  int max_log_streams = 8;  // log streams at once: a 10,000-Job sweep must not mean 10,000
};

enum class FollowEnd { Finished, Interrupted, Detached };

// `jobs`: every Job of the run in display order, as known so far (from the record, when
// re-attaching; their pods' log_lines say what was already delivered).
FollowEnd follow_run(kube::Client& client, std::vector<JobProgress>& jobs, FollowOptions options, RunSink& sink,
                     FollowView& view);

}  // namespace gkebuild::submit
