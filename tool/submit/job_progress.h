// Where each Job of a run stands, read from the Job and Pod objects the watches
// deliver and the pods' events: the state the run record keeps, and the words the
// follow view shows ("waiting for a GPU node", "pulling the image").
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tool/core/kube/events.h"
#include "tool/steps/plan/run_plan.h"

namespace gkebuild::submit {

// Stopped: a local run's Job stopped by a signal or `gkebuild delete` before it finished.
enum class JobState { Pending, Running, Succeeded, Failed, Stopped };
std::string to_string(JobState state);
std::optional<JobState> parse_job_state(const std::string& text);
inline bool is_finished(JobState state) {
  return state == JobState::Succeeded || state == JobState::Failed || state == JobState::Stopped;
}

struct PodProgress {
  std::string name;
  int index = -1;  // completion index of an Indexed Job's pod
  std::string node;
  std::string phase;  // Pending, Running, Succeeded, Failed
  bool scheduled = false;
  std::string unschedulable;   // the scheduler's message while PodScheduled is False
  std::string waiting_reason;  // ContainerCreating, ErrImagePull, ImagePullBackOff…
  std::string waiting_message;
  std::optional<int> exit_code;
  std::string terminated_reason;  // Error, OOMKilled, ContainerStatusUnknown…
  std::string evicted;            // the kubelet's message when the pod was evicted (status.reason Evicted)
  std::string termination_message;  // the main container's state.terminated.message (its result lines)
  std::string start;  // container start (RFC 3339), or empty
  std::string end;
  // From events: the latest scale-up or scheduling failure, and whether a pull started.
  std::string scale_up;
  std::string failed_scheduling;
  bool pulling = false;
  int log_lines = 0;  // lines of its log already delivered (kept in the record, so a re-attach repeats none)
  bool results_from_message = false;  // its results were taken from the termination message (no log read)

  bool has_output() const { return phase == "Running" || phase == "Succeeded" || phase == "Failed"; }
};

// Where a Job's pods run: the experiment's own choice, or a `fallback:` alternative's once the
// follower moved the Job there (the record then prices and attributes its results by it). The
// same data as a planned Job's or alternative's placement.
using JobPlacement = plan::Placement;

// One time the follower recreated a Job: a gang restart after a disruption ("restart"), or a
// move to the next `fallback:` alternative when capacity was not there ("fallback").
struct Recovery {
  std::string kind;    // "restart" or "fallback"
  std::string reason;  // what happened: "rank 1: DisruptionTarget (TerminationByKubelet)"…
  std::string at;      // when (RFC 3339)
  std::string left;    // fallback: the placement left ("nvidia-h100-80gb x8 spot"); else ""
};

struct JobProgress {
  std::string name;
  JobState state = JobState::Pending;
  std::string reason;  // why it failed or waits, for the record
  std::string start;   // status.startTime
  std::string end;     // status.completionTime, or when the Failed condition was set
  // Why a Job that Kueue holds back (created suspended, spec.suspend still true) waits:
  // "Kueue: waiting for quota", or what its Workload says; empty once it runs.
  std::string queued;
  std::map<std::string, PodProgress> pods;
  std::vector<Recovery> recoveries;         // oldest first
  std::optional<JobPlacement> placement;    // set once the Job moved to an alternative

  int restarts() const;
  // The line the follow view shows after the Job's name.
  std::string describe() const;
};

// Reads a Job object's status: the Failed condition (with its reason) and the
// Complete condition decide; otherwise running once a pod is ready.
void update_from_job(JobProgress& job, const nlohmann::json& object);
// Reads the Kueue Workload of a queued Job (kueue.x-k8s.io Workload owned by it): an
// inadmissible Workload (no such LocalQueue, a stopped ClusterQueue) says why in `queued`.
void update_from_workload(JobProgress& job, const nlohmann::json& workload);
// The Job a Kueue Workload belongs to (its owner reference of kind Job), or "".
std::string job_of_workload(const nlohmann::json& workload);
inline constexpr const char* kWaitingForQuota = "Kueue: waiting for quota";
// A queued Job on a cluster whose API has no Kueue Workloads (404): nothing will admit it.
inline constexpr const char* kNoKueue = "suspended, but this cluster serves no Kueue Workloads: is Kueue installed?";
// Reads a pod: scheduling, the main container's waiting/running/terminated state.
void update_from_pod(PodProgress& pod, const nlohmann::json& object);
// Reads the pod's events: its whole history so far, oldest first (what an earlier call set and
// these events do not is cleared).
void update_from_events(PodProgress& pod, const std::vector<kube::ObjectEvent>& events);

// The Job a pod belongs to (the job-name label), or "".
std::string job_of_pod(const nlohmann::json& pod);

}  // namespace gkebuild::submit
