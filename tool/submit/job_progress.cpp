#include "tool/submit/job_progress.h"

namespace gkebuild::submit {
namespace {

using nlohmann::json;

const json& field(const json& object, const char* key) {
  static const json empty = json::object();
  auto found = object.find(key);
  return found != object.end() && found->is_object() ? *found : empty;
}

std::string text(const json& object, const char* key) {
  auto found = object.find(key);
  return found != object.end() && found->is_string() ? found->get<std::string>() : "";
}

const json* condition(const json& status, const std::string& type) {
  auto conditions = status.find("conditions");
  if (conditions == status.end() || !conditions->is_array()) return nullptr;
  for (const auto& item : *conditions)
    if (text(item, "type") == type && text(item, "status") == "True") return &item;
  return nullptr;
}

// What ended the Job's last failed pod, for the failure reason (a Job retries: earlier pods may
// have failed otherwise, or been evicted and ignored by its podFailurePolicy): an eviction, the exit
// code with the runtime's reason when it says more than "Error" (OOMKilled: the container hit its
// memory limit), or an image that could not be pulled until the Job's deadline.
std::string exit_codes(const JobProgress& job) {
  const PodProgress* last = nullptr;
  for (const auto& [name, pod] : job.pods)
    if ((!pod.evicted.empty() || (pod.exit_code && *pod.exit_code != 0)) && (!last || pod.end >= last->end)) last = &pod;
  if (last && !last->evicted.empty()) return "pod evicted: " + last->evicted;
  if (last) {
    const bool telling = !last->terminated_reason.empty() && last->terminated_reason != "Error";
    return "exit code " + std::to_string(*last->exit_code) + (telling ? " (" + last->terminated_reason + ")" : "");
  }
  for (const auto& [name, pod] : job.pods)
    if (pod.waiting_reason == "ErrImagePull" || pod.waiting_reason == "ImagePullBackOff")
      return "the image could not be pulled (" + pod.waiting_reason + ")";
  return "";
}

// ", 1 failed pod replaced": the attempts the Job controller retried (backoffLimit), or replaced
// without counting them (a preempted or evicted pod its podFailurePolicy ignores).
std::string replaced(const JobProgress& job) {
  int failed = 0;
  for (const auto& [name, pod] : job.pods) failed += pod.phase == "Failed";
  return failed == 0 ? "" : ", " + std::to_string(failed) + " failed pod" + (failed > 1 ? "s" : "") + " replaced";
}

bool mentions_quota(const std::string& message) {
  std::string lower = message;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower.find("quota") != std::string::npos;
}

std::string pending_words(const PodProgress& pod) {
  if (!pod.scheduled) {
    if (mentions_quota(pod.scale_up))
      return "waiting for a GPU node: GPU quota exceeded (scale-up: " + pod.scale_up +
             "); ask for more GPUS_ALL_REGIONS and regional GPU quota, or use another region";
    if (!pod.scale_up.empty()) return "waiting for a GPU node (scale-up: " + pod.scale_up + ")";
    if (!pod.failed_scheduling.empty()) return "waiting for a GPU node (" + pod.failed_scheduling + ")";
    return pod.unschedulable.empty() ? "waiting for a GPU node" : "waiting for a GPU node (" + pod.unschedulable + ")";
  }
  if (pod.waiting_reason == "ErrImagePull" || pod.waiting_reason == "ImagePullBackOff")
    return "cannot pull the image: " + pod.waiting_reason + (pod.waiting_message.empty() ? "" : ": " + pod.waiting_message);
  if (pod.pulling) return "pulling the image on " + (pod.node.empty() ? std::string("its node") : pod.node);
  return pod.waiting_reason.empty() ? "starting" : "starting (" + pod.waiting_reason + ")";
}

}  // namespace

std::string to_string(JobState state) {
  switch (state) {
    case JobState::Pending: return "pending";
    case JobState::Running: return "running";
    case JobState::Succeeded: return "succeeded";
    case JobState::Failed: return "failed";
    case JobState::Stopped: return "stopped";
  }
  return "pending";
}

std::optional<JobState> parse_job_state(const std::string& text) {
  for (auto state : {JobState::Pending, JobState::Running, JobState::Succeeded, JobState::Failed, JobState::Stopped})
    if (to_string(state) == text) return state;
  return std::nullopt;
}

int JobProgress::restarts() const {
  int count = 0;
  for (const auto& recovery : recoveries) count += recovery.kind == "restart";
  return count;
}

namespace {

// ", after 1 gang restart" / ", on fallback 1 (...)": what the follower did to the Job so far.
std::string recovered(const JobProgress& job) {
  std::string words;
  if (const int restarts = job.restarts(); restarts > 0)
    words += ", after " + std::to_string(restarts) + " gang restart" + (restarts > 1 ? "s" : "");
  int moves = 0;
  for (const auto& recovery : job.recoveries) moves += recovery.kind == "fallback";
  if (moves > 0) words += ", on fallback " + std::to_string(moves);
  return words;
}

std::string describe_state(const JobProgress& job);

}  // namespace

std::string JobProgress::describe() const { return describe_state(*this) + recovered(*this); }

namespace {

std::string describe_state(const JobProgress& job) {
  const auto& state = job.state;
  const auto& reason = job.reason;
  const auto& queued = job.queued;
  const auto& pods = job.pods;
  if (state == JobState::Succeeded) return "succeeded";
  if (state == JobState::Failed) return "failed: " + reason;
  if (state == JobState::Stopped) return "stopped: " + reason;
  if (state == JobState::Running) {
    int running = 0, live = 0;
    const PodProgress* only = nullptr;
    for (const auto& [name, pod] : pods) {
      running += pod.phase == "Running";
      if (pod.phase != "Failed") ++live, only = &pod;
    }
    return (live > 1 ? "running (" + std::to_string(running) + "/" + std::to_string(live) + " pods)"
                     : "running" + (!only || only->node.empty() ? std::string() : " on " + only->node)) +
           replaced(job);
  }
  if (!queued.empty()) return "pending: queued (" + queued + ")";
  for (const auto& [name, pod] : pods)
    if (pod.phase == "Pending") return "pending: " + pending_words(pod) + replaced(job);
  return "pending";
}

}  // namespace

void update_from_job(JobProgress& job, const json& object) {
  const json& status = field(object, "status");
  if (const auto s = text(status, "startTime"); !s.empty()) job.start = s;
  if (const json* failed = condition(status, "Failed")) {
    job.state = JobState::Failed;
    const std::string codes = exit_codes(job);
    job.reason = text(*failed, "reason");
    if (job.reason.empty()) job.reason = "Failed";
    if (!codes.empty()) job.reason += ": " + codes;
    job.end = text(*failed, "lastTransitionTime");
    if (job.end.empty()) job.end = text(status, "completionTime");
    return;
  }
  if (condition(status, "Complete")) {
    job.state = JobState::Succeeded;
    job.reason.clear();
    job.end = text(status, "completionTime");
    return;
  }
  job.reason.clear();  // a pending or running Job has none (the record may hold an older one)
  const json& spec = field(object, "spec");
  const bool suspended = spec.value("suspend", json(false)) == json(true);
  if (!suspended) job.queued.clear();
  else if (job.queued.empty()) job.queued = kWaitingForQuota;
  const int ready = status.value("ready", 0);
  const int active = status.value("active", 0);
  job.state = ready > 0 || (active > 0 && job.pods.size() > 0 && job.pods.begin()->second.phase == "Running")
                  ? JobState::Running
                  : JobState::Pending;
}

namespace {

void update_from_checks(JobProgress& job, const json& status) {
  auto checks = status.find("admissionChecks");
  if (checks == status.end() || !checks->is_array()) return;
  for (const auto& check : *checks)
    if (text(check, "state") != "Ready") {
      job.queued = "Kueue: quota reserved; nodes not provisioned yet: admission check " + text(check, "name") + " " +
                   text(check, "state") + ": " + text(check, "message");
      return;
    }
}

}  // namespace

void update_from_workload(JobProgress& job, const json& workload) {
  if (job.queued.empty()) return;
  const json& status = field(workload, "status");
  auto conditions = status.find("conditions");
  if (conditions == status.end() || !conditions->is_array()) return;
  for (const auto& item : *conditions) {
    if (text(item, "type") == "QuotaReserved" && text(item, "status") == "False") {
      const std::string reason = text(item, "reason");
      job.queued = reason == "Inadmissible" ? "Kueue: inadmissible: " + text(item, "message") : kWaitingForQuota;
    }
    // Quota reserved, not admitted: an admission check (queued provisioning's ProvisioningRequest) holds it.
    if (text(item, "type") == "QuotaReserved" && text(item, "status") == "True") update_from_checks(job, status);
  }
}

std::string job_of_workload(const json& workload) {
  auto owners = field(workload, "metadata").find("ownerReferences");
  if (owners == field(workload, "metadata").end() || !owners->is_array()) return "";
  for (const auto& owner : *owners)
    if (text(owner, "kind") == "Job") return text(owner, "name");
  return "";
}

void update_from_pod(PodProgress& pod, const json& object) {
  const json& metadata = field(object, "metadata");
  const json& spec = field(object, "spec");
  const json& status = field(object, "status");
  pod.name = text(metadata, "name");
  const std::string index = text(field(metadata, "annotations"), "batch.kubernetes.io/job-completion-index");
  if (!index.empty()) pod.index = std::stoi(index);
  pod.node = text(spec, "nodeName");
  pod.phase = text(status, "phase");
  pod.evicted = text(status, "reason") == "Evicted" ? text(status, "message") : std::string();
  if (text(status, "reason") == "Evicted" && pod.evicted.empty()) pod.evicted = "Evicted";
  pod.scheduled = true;
  pod.unschedulable.clear();
  if (auto conditions = status.find("conditions"); conditions != status.end() && conditions->is_array())
    for (const auto& item : *conditions)
      if (text(item, "type") == "PodScheduled" && text(item, "status") == "False") {
        pod.scheduled = false;
        pod.unschedulable = text(item, "message");
      }
  auto containers = status.find("containerStatuses");
  if (containers == status.end() || !containers->is_array() || containers->empty()) return;
  const json& state = field(containers->front(), "state");
  const json& waiting = field(state, "waiting");
  pod.waiting_reason = text(waiting, "reason");
  pod.waiting_message = text(waiting, "message");
  if (const auto s = text(field(state, "running"), "startedAt"); !s.empty()) pod.start = s;
  const json& terminated = field(state, "terminated");
  if (terminated.contains("exitCode")) {
    pod.exit_code = terminated.value("exitCode", 0);
    pod.terminated_reason = text(terminated, "reason");
    pod.termination_message = text(terminated, "message");
    if (const auto s = text(terminated, "startedAt"); !s.empty()) pod.start = s;
    pod.end = text(terminated, "finishedAt");
  }
}

void update_from_events(PodProgress& pod, const std::vector<kube::ObjectEvent>& events) {
  pod.scale_up.clear();
  pod.failed_scheduling.clear();
  pod.pulling = false;
  for (const auto& event : events) {
    if (event.reason == "TriggeredScaleUp") pod.scale_up = event.message;
    if (event.reason == "FailedScheduling") pod.failed_scheduling = event.message;
    if (event.reason == "NotTriggerScaleUp") pod.scale_up = "not triggered: " + event.message;
    // GKE's event when a scale-up it started failed (stockout, quota).
    if (event.reason == "FailedScaleUp") pod.scale_up = "failed: " + event.message;
    if (event.reason == "Pulling") pod.pulling = true;
  }
}

std::string job_of_pod(const json& pod) {
  const json& labels = field(field(pod, "metadata"), "labels");
  std::string name = text(labels, "batch.kubernetes.io/job-name");
  return name.empty() ? text(labels, "job-name") : name;
}

}  // namespace gkebuild::submit
