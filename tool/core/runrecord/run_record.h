// A run as `gkebuild submit` records it and `gkebuild report` reads it: the run, its Jobs
// and their pods. The file format is tool/core/runrecord/README.md; this is its in-memory form.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace gkebuild::runrecord {

using Clock = std::chrono::system_clock;
using TimePoint = Clock::time_point;

// stopped: a local run's Job that was stopped (a signal, `gkebuild delete`) before it finished,
// or never started because of that.
enum class JobState { pending, running, succeeded, failed, stopped };

std::string_view to_string(JobState state);
// nullopt for anything but the five names.
std::optional<JobState> parse_job_state(std::string_view text);

struct PodRecord {
  std::string name;
  std::string node;
  std::optional<int> exit_code;  // null until the container ended
  std::optional<TimePoint> start;
  std::optional<TimePoint> end;
};

// One time the follower recreated a Job (see README.md): a gang restart after a disruption, or a
// move to the next `fallback:` alternative because capacity was not there.
struct RecoveryRecord {
  std::string kind;    // "restart" or "fallback"
  std::string reason;  // what happened
  std::optional<TimePoint> at;
  std::string left;  // fallback: the placement left, e.g. "nvidia-h100-80gb x8 spot"
};

struct JobRecord {
  std::string name;
  std::optional<std::string> accelerator;  // catalog label; nullopt: ran without a GPU
  int gpus = 0;
  std::string machine_type;  // "local" for the local runner
  bool spot = false;
  std::string provisioning;  // spot, flex-start, queued, reservation, on-demand; "" in older records
  int nodes = 1;  // a multi-node Job's pods (its results carry their node_rank)
  nlohmann::json parameters = nlohmann::json::object();
  JobState state = JobState::pending;
  std::string reason;  // why it failed or waits; empty otherwise
  std::optional<TimePoint> start;
  std::optional<TimePoint> end;
  std::vector<PodRecord> pods;
  std::vector<RecoveryRecord> recoveries;  // oldest first
};

// The gkebuild process running a local run: while it holds the record, a reader can tell a run
// still going from one whose runner was killed (a pid alone may be reused by then).
struct LocalRunner {
  long pid = 0;
  unsigned long long start_ticks = 0;  // its start time, field 22 of /proc/PID/stat
};

// The experiment's `search:`, as the report shows it: how the points were chosen and stopped, and
// the objective that names the best of them.
struct SearchRecord {
  std::string algorithm;  // random, sobol, halving
  std::string metric;     // the objective's; "" when the search has none
  bool minimize = true;
  std::string stopping;   // "median", "halving" or ""
};

struct RunRecord {
  std::string run;  // folder name, EXPERIMENT-YYYYMMDD-HHMMSS[-N]
  std::string project;
  std::string experiment;
  std::string target = "cluster";  // "cluster" or "local"
  std::string context;             // kubeconfig context; empty for local
  std::string namespace_name;
  // The GCE region whose prices the run is costed in (the project file's cluster.location, or
  // its region); empty when the file gives none and in runs from before it was recorded.
  std::string region;
  TimePoint created{};
  std::optional<TimePoint> finished;  // nullopt while a Job is pending or running
  std::map<std::string, std::string> images;  // image name -> pushed reference
  // Where the Jobs' secret variables came from: the run's own Secret (holding `secret_env`,
  // read from the submitter's environment) and existing Secrets (envFrom). Names only.
  std::string secret;
  std::vector<std::string> secret_env;
  std::vector<std::string> secret_refs;
  std::vector<JobRecord> jobs;
  // submit --managed: the run's controller in the cluster follows it and keeps the record in the
  // run's state ConfigMap, where `gkebuild status` reads it.
  bool managed = false;
  std::optional<SearchRecord> search;  // runs of an experiment with `search:` only
  std::optional<LocalRunner> runner;  // a local run's, until it has finished
};

// "2026-11-22T03:15:00.123Z": RFC 3339 UTC with milliseconds, as run.json stores times.
std::string format_timestamp(TimePoint when);
// Any RFC 3339 time (fraction and offset optional); nullopt when `text` is not one.
std::optional<TimePoint> parse_timestamp(std::string_view text);

}  // namespace gkebuild::runrecord
