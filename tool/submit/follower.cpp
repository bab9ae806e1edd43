#include "tool/submit/follower.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <functional>
#include <memory>

#include "tool/core/kube/api_error.h"
#include "tool/core/kube/logs.h"
#include "tool/core/kube/objects.h"
#include "tool/core/kube/watch.h"
#include "tool/core/runrecord/run_record.h"
#include "tool/submit/record_writer.h"
#include "tool/steps/plan/run_id.h"

namespace gkebuild::submit {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

std::string name_of(const json& object) {
  auto metadata = object.find("metadata");  // in place: json::value would copy the metadata
  return metadata != object.end() && metadata->is_object() ? metadata->value("name", "") : "";
}

bool terminal_phase(const std::string& phase) { return phase == "Succeeded" || phase == "Failed"; }

std::string uid_of(const json& object) {
  auto metadata = object.find("metadata");
  return metadata != object.end() && metadata->is_object() ? metadata->value("uid", "") : "";
}

// The uid of the Job that made a pod (its controller-uid label), or "".
std::string controller_uid_of(const json& pod) {
  auto metadata = pod.find("metadata");
  if (metadata == pod.end() || !metadata->is_object()) return "";
  const json labels = metadata->value("labels", json::object());
  if (!labels.is_object()) return "";
  const std::string uid = labels.value("batch.kubernetes.io/controller-uid", "");
  return uid.empty() ? labels.value("controller-uid", "") : uid;
}

std::string now_text() { return runrecord::format_timestamp(runrecord::Clock::now()); }

// Of a Job object, what update_from_job and finished_locked read again later: the status's
// times and counts, its Failed and Complete conditions while true (with their reason and time),
// and whether it is suspended. A sweep's thousands of whole statuses need not stay in memory
// (their other conditions and messages took about 3 KB a Job).
json what_progress_reads(const json& job) {
  json kept = json::object();
  if (auto status = job.find("status"); status != job.end() && status->is_object()) {
    json& to = kept["status"] = json::object();
    for (const char* key : {"startTime", "completionTime", "ready", "active", "succeeded", "failed"})
      if (auto value = status->find(key); value != status->end()) to[key] = *value;
    if (auto conditions = status->find("conditions"); conditions != status->end() && conditions->is_array())
      for (const auto& condition : *conditions) {
        if (!condition.is_object()) continue;
        const json type = condition.value("type", json()), state = condition.value("status", json());
        if ((type != "Failed" && type != "Complete") || state != "True") continue;
        json& copy = to["conditions"].emplace_back(json::object());
        for (const char* key : {"type", "status", "reason", "lastTransitionTime"})
          if (auto value = condition.find(key); value != condition.end()) copy[key] = *value;
      }
  }
  if (auto spec = job.find("spec"); spec != job.end() && spec->contains("suspend"))
    kept["spec"]["suspend"] = (*spec)["suspend"];
  return kept;
}

// Jobs created before the loop looks at the view and Ctrl-C again.
constexpr std::size_t kCreateBatch = 100;

class Follower {
 public:
  Follower(kube::ClusterApi& cluster, std::vector<JobProgress>& jobs, FollowOptions options, RunSink& sink,
           FollowView& view)
      : cluster_(cluster), jobs_(jobs), options_(std::move(options)), sink_(sink), view_(view) {
    for (std::size_t i = 0; i < jobs_.size(); ++i) index_[jobs_[i].name] = i;
    for (const auto& job : options_.to_create) queued_.insert(job.name);
    // Kept to create the Job again (a run followed again has Jobs that were created earlier).
    for (const auto& [name, recovery] : options_.recovery) bodies_[name] = recovery.create;
    for (const auto& job : jobs_) resume_fallback(job);
  }

  FollowEnd run() {
    if (!options_.follow) {
      while (!options_.to_create.empty()) create_round(kCreateBatch);
      std::lock_guard lock(mutex_);
      publish();
      return FollowEnd::Detached;
    }
    watch_jobs();
    watch_pods();
    watch_events();
    if (!options_.queue.empty()) watch_workloads();
    FollowEnd end = FollowEnd::Finished;
    try {
      end = loop();
    } catch (const std::exception& error) {
      stop_ = true;
      wait_until_quiet();
      drop_queued(std::string("not created: ") + error.what());
      std::lock_guard lock(mutex_);
      publish();
      throw;
    }
    if (end == FollowEnd::Interrupted) drop_queued("not created: following stopped before the in-flight cap let it start");
    // Finished: every log was read already. Either way the cancel flag ends the watches (and,
    // after Ctrl-C, the log streams) within about a second.
    stop_ = true;
    wait_until_quiet();
    std::lock_guard lock(mutex_);
    publish();
    view_.finish();
    return end;
  }

 private:
  FollowEnd loop() {
    while (true) {
      if (options_.interrupted && options_.interrupted->load()) return FollowEnd::Interrupted;
      create_up_to_cap();
      recover();
      std::unique_lock lock(mutex_);
      if (failure_) std::rethrow_exception(failure_);
      start_logs();
      if (dirty_ && publish_due()) publish();
      // A point stopped early while this thread was out of the lock (creating, deleting) counts
      // as finished at once, but its Job still runs: the next turn deletes it first.
      if (finished_locked() && to_delete_.empty() && to_recreate_.empty()) return FollowEnd::Finished;
      changed_.wait_for(lock, std::chrono::milliseconds(200),
                        [this] {
                          return (dirty_ && publish_due()) || failure_ != nullptr || !to_recreate_.empty() ||
                                 !to_delete_.empty();
                        });
    }
  }

  // Starts a watch on the cluster's event loop; its failure ends the follow, unless `absorb`
  // (which runs first) takes it and answers nullptr.
  void watch(const kube::ResourceType& type, const kube::WatchOptions& options,
             std::function<void(const kube::WatchEvent&)> handle,
             std::function<std::exception_ptr(std::exception_ptr)> absorb = nullptr) {
    {
      std::lock_guard lock(mutex_);
      ++watches_running_;
    }
    cluster_.start_watch(
        type, options_.namespace_name, options,
        [this, handle = std::move(handle)](const kube::WatchEvent& event) {
          handle(event);
          return !stop_.load();
        },
        [this, absorb = std::move(absorb)](kube::WatchStats, std::exception_ptr error) {
          if (error && absorb) error = absorb(error);
          std::lock_guard lock(mutex_);
          --watches_running_;
          if (error && !failure_ && !stop_) failure_ = error;
          changed_.notify_all();
        });
  }

  // After stop_: waits until every watch and log stream has ended, so that no callback is left.
  void wait_until_quiet() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return watches_running_ == 0 && active_logs_ == 0; });
  }

  kube::WatchOptions watch_options() const {
    kube::WatchOptions watch;
    watch.selectors.label_selector = plan::run_selector(options_.run_id);
    watch.timeout_seconds = options_.watch_timeout_seconds;
    watch.cancel = &stop_;
    watch.keep_last_state = false;  // a deleted object's name is all the follower reads
    return watch;
  }

  void watch_jobs() {
    watch(kube::resource_type("batch/v1", "Job"), watch_options(), [this](const kube::WatchEvent& event) { on_job(event); });
  }

  void watch_pods() {
    kube::WatchOptions options = watch_options();
    options.listed = &pods_listed_;
    watch(kube::resource_type("v1", "Pod"), options, [this](const kube::WatchEvent& event) { on_pod(event); });
  }

  // Pod events (why a pod waits: scheduling failures, scale-up, image pulls) as they are
  // recorded: one watch for the namespace, instead of listing its events again and again.
  void watch_events() {
    kube::WatchOptions options = watch_options();
    options.selectors = {};
    options.selectors.field_selector = "involvedObject.kind=Pod";
    watch(kube::resource_type("v1", "Event"), options, [this](const kube::WatchEvent& event) { on_event(event); });
  }

  // Why queued Jobs wait (no such LocalQueue, a stopped ClusterQueue): their Kueue Workloads,
  // one watch for the namespace, since Workloads carry no run label.
  void watch_workloads() {
    kube::WatchOptions options = watch_options();
    options.selectors = {};
    watch(kube::resource_type("kueue.x-k8s.io/v1beta1", "Workload"), options,
          [this](const kube::WatchEvent& event) { on_workload(event); },
          [this](std::exception_ptr error) -> std::exception_ptr {
            try {
              std::rethrow_exception(error);
            } catch (const kube::ApiError& refused) {
              if (refused.status() != 404) return error;
            } catch (...) {
              return error;
            }
            std::lock_guard lock(mutex_);  // the cluster has no Kueue
            no_kueue_ = true;
            for (auto& job : jobs_) explain_queued(job);
            mark_changed();
            return nullptr;
          });
  }

  void on_workload(const kube::WatchEvent& event) {
    if (event.type == "DELETED") return;
    std::lock_guard lock(mutex_);
    auto found = index_.find(job_of_workload(event.object));
    if (found == index_.end()) return;
    last_workload_[found->first] = event.object;
    explain_queued(jobs_[found->second]);
    mark_changed();
  }

  // A queued Job's words from its Workload, whichever of the two arrived first.
  void explain_queued(JobProgress& job) {
    if (job.queued.empty()) return;
    if (no_kueue_) job.queued = kNoKueue;
    else if (auto workload = last_workload_.find(job.name); workload != last_workload_.end())
      update_from_workload(job, workload->second);
  }

  void on_event(const kube::WatchEvent& event) {
    if (event.type == "DELETED") return;  // events expire; what they said stays true
    const json& involved = event.object.value("involvedObject", json::object());
    const std::string pod_name = involved.value("name", "");
    std::lock_guard lock(mutex_);
    const std::string job = job_of_pod_name(pod_name);
    if (job.empty()) return;
    auto pod = jobs_[index_.at(job)].pods.find(pod_name);
    const bool known = pod != jobs_[index_.at(job)].pods.end();
    if (known && pod->second.has_output()) return;  // events say why a pod waits; this one waits no more
    pod_events_[pod_name][name_of(event.object)] = kube::object_event(event.object);
    if (known) {
      apply_events(pod_name, pod->second);
      mark_changed();
    }
  }

  // The Job a pod name belongs to, by the names the Job controller gives its pods:
  // JOB-xxxxx, or JOB-INDEX-xxxxx for Indexed Jobs; empty for another run's pods.
  std::string job_of_pod_name(const std::string& pod) const {
    std::string prefix = pod.substr(0, std::min(pod.size(), pod.rfind('-')));
    for (int tries = 0; tries < 2 && !prefix.empty(); ++tries) {
      if (index_.count(prefix)) return prefix;
      prefix = prefix.substr(0, std::min(prefix.size(), prefix.rfind('-')));
    }
    return "";
  }

  void apply_events(const std::string& pod_name, PodProgress& pod) {
    auto found = pod_events_.find(pod_name);
    if (found == pod_events_.end()) return;
    std::vector<kube::ObjectEvent> history;
    for (const auto& [name, event] : found->second) history.push_back(event);
    kube::sort_by_time(history);
    update_from_events(pod, history);
  }

  void on_job(const kube::WatchEvent& event) {
    std::lock_guard lock(mutex_);
    auto found = index_.find(name_of(event.object));
    if (found == index_.end()) return;
    JobProgress& job = jobs_[found->second];
    const std::string uid = uid_of(event.object);
    // A Job this follower deleted to recreate it: what it says now is history.
    if (retired_uids_.count(uid) || (uid.empty() && recreating_.count(job.name)) || stopping_.count(job.name)) return;
    if (!uid.empty() && options_.recovery.count(job.name)) {
      uids_[job.name] = uid;
      pending_since_.try_emplace(job.name, Clock::now());  // a Job created before this follow
    }
    if (event.type == "DELETED") {
      if (!is_finished(job.state)) {
        job.state = JobState::Failed;
        job.reason = "Deleted";
      }
    } else {
      last_job_[job.name] = what_progress_reads(event.object);
      update_from_job(job, event.object);
      explain_queued(job);
      if (job.state == JobState::Failed && !exhausted_.count(job.name)) restart_if_disrupted(job, event.object);
      note_exhausted(job);
    }
    mark_changed();
  }

  // --- recovery (recovery.h): gang restarts and fallback: alternatives --------------------------

  // A Job the record shows moved to an alternative already (a run followed again) goes on from it.
  void resume_fallback(const JobProgress& job) {
    auto recovery = options_.recovery.find(job.name);
    if (recovery == options_.recovery.end()) return;
    std::size_t moves = 0;
    for (const auto& done : job.recoveries) moves += done.kind == "fallback";
    if (moves == 0 || moves > recovery->second.fallbacks.size()) return;
    bodies_[job.name] = recovery->second.fallbacks[moves - 1].create;
    next_fallback_[job.name] = moves;
  }

  // A multi-node Job failed by a disrupted node (or a retriable exit): every node starts again,
  // from the newest checkpoint, as a new Job of the same name, while restarts are left.
  void restart_if_disrupted(JobProgress& job, const json& object) {
    auto recovery = options_.recovery.find(job.name);
    if (recovery == options_.recovery.end() || !bodies_.count(job.name)) return;
    const auto cause = disruption_of(object, recovery->second.retriable_exit_codes);
    if (!cause) return;
    if (job.restarts() >= recovery->second.restarts) {
      exhausted_[job.name] =
          " (" + *cause + "; no gang restart left of restarts: " + std::to_string(recovery->second.restarts) + ")";
      note_exhausted(job);
      return;
    }
    job.recoveries.push_back({"restart", *cause, now_text(), ""});
    recreate_later(job);
  }

  // --- early stopping (earlyStopping:, early_stopping.h) --------------------------------------

  // A log or result line of `job`; with mutex_ held.
  void observe_result(const std::string& job, const std::string& line) {
    if (!options_.early_stopping) return;
    const json result = result_of(line);
    if (result.is_null()) return;
    for (const auto& [name, why] : options_.early_stopping->observe(job, result)) stop_early(name, why);
  }

  // The Job is deleted (with its pods) by the loop, and recorded stopped; with mutex_ held.
  void stop_early(const std::string& name, const std::string& why) {
    auto found = index_.find(name);
    if (found == index_.end()) return;
    JobProgress& job = jobs_[found->second];
    if (is_finished(job.state) || queued_.count(name)) return;
    job.state = JobState::Stopped;
    job.reason = why;
    job.end = now_text();
    if (auto uid = uids_.find(name); uid != uids_.end() && !uid->second.empty()) {
      retired_uids_.insert(uid->second);
      to_retire_[name] = uid->second;
    }
    stopping_.insert(name);
    last_job_.erase(name);
    to_delete_.push_back(name);
    mark_changed();
  }

  // A failed Job that had no gang restart left says so, whatever update_from_job wrote since.
  void note_exhausted(JobProgress& job) {
    auto note = exhausted_.find(job.name);
    if (note != exhausted_.end() && job.state == JobState::Failed && !job.reason.ends_with(note->second))
      job.reason += note->second;
  }

  // Pending Jobs with alternatives left whose capacity is not coming (a failed scale-up) or whose
  // pods waited longer than pendingTimeout move to the next alternative; with mutex_ held.
  void fall_back_where_due() {
    const auto now = Clock::now();
    for (auto& [name, recovery] : options_.recovery) {
      if (recovery.fallbacks.empty() || queued_.count(name) || recreating_.count(name) || started_.count(name)) continue;
      auto index = index_.find(name);
      auto since = pending_since_.find(name);
      if (index == index_.end() || since == pending_since_.end()) continue;
      JobProgress& job = jobs_[index->second];
      const std::size_t next = next_fallback_[name];
      if (job.state != JobState::Pending || !job.queued.empty() || next >= recovery.fallbacks.size()) continue;
      auto why = capacity_refused(job);
      if (!why && now - since->second >= std::chrono::seconds(recovery.pending_timeout_seconds))
        why = "its pods waited for nodes longer than pendingTimeout (" +
              std::to_string(recovery.pending_timeout_seconds) + " s)";
      if (why) fall_back(job, recovery, next, *why);
    }
  }

  void fall_back(JobProgress& job, const JobRecovery& recovery, std::size_t next, const std::string& why) {
    const FallbackJob& fallback = recovery.fallbacks[next];
    const std::string left = next == 0 ? recovery.describe : recovery.fallbacks[next - 1].describe;
    job.recoveries.push_back({"fallback", why + "; now " + fallback.describe, now_text(), left});
    job.placement = fallback.placement;
    bodies_[job.name] = fallback.create;
    ++next_fallback_[job.name];
    for (auto pod = job.pods.begin(); pod != job.pods.end();) {  // never ran: nothing of them is kept
      if (pod->second.has_output()) {
        ++pod;
        continue;
      }
      pod_events_.erase(pod->first);
      pod = job.pods.erase(pod);
    }
    recreate_later(job);
    publish();  // the record names the new accelerator before any result of it arrives
  }

  // The Job is deleted and created again by the loop (recover()); with mutex_ held.
  void recreate_later(JobProgress& job) {
    if (auto uid = uids_.find(job.name); uid != uids_.end() && !uid->second.empty()) {
      retired_uids_.insert(uid->second);
      to_retire_[job.name] = uid->second;
    }
    for (auto& [name, pod] : job.pods)  // the Job controller ends them; their later events are not read
      if (!terminal_phase(pod.phase)) pod.phase = "Failed";
    recreating_.insert(job.name);
    started_.erase(job.name);
    last_job_.erase(job.name);
    job.state = JobState::Pending;
    job.reason.clear();
    job.end.clear();
    to_recreate_.push_back(job.name);
    mark_changed();
  }

  // On the calling thread: fallbacks that are due, then the deletes and creates they and the
  // restarts asked for.
  void recover() {
    std::deque<std::string> due, stopped;
    {
      std::lock_guard lock(mutex_);
      if (!options_.recovery.empty()) fall_back_where_due();
      due.swap(to_recreate_);
      stopped.swap(to_delete_);
    }
    for (const auto& name : due) recreate(name);
    for (const auto& name : stopped) {  // stopped early: the Job and its pods go
      retire(name);
      cluster_.remove(kube::resource_type("batch/v1", "Job"), options_.namespace_name, name, kube::Propagation::Background);
    }
  }

  // On the calling thread, before the Job `name` is deleted: options_.retiring hears of it.
  void retire(const std::string& name) {
    std::string uid;
    {
      std::lock_guard lock(mutex_);
      auto found = to_retire_.find(name);
      if (found == to_retire_.end()) return;
      uid = found->second;
      to_retire_.erase(found);
    }
    if (options_.retiring) options_.retiring(name, uid);
  }

  void recreate(const std::string& name) {
    kube::PreparedCreate body;
    {
      std::lock_guard lock(mutex_);
      body = bodies_.at(name);
    }
    retire(name);
    // Background: the Job goes at once (it has no finalizer), its pods after it.
    cluster_.remove(kube::resource_type("batch/v1", "Job"), options_.namespace_name, name, kube::Propagation::Background);
    std::string uid;
    try {
      cluster_.send_create(body, &uid);
    } catch (const kube::ApiError& refused) {
      if (refused.status() != 409) throw;
      std::lock_guard lock(mutex_);  // the old Job is still being removed: next round
      to_recreate_.push_back(name);
      return;
    }
    {
      std::lock_guard lock(mutex_);
      uids_[name] = uid;
      recreating_.erase(name);
      pending_since_[name] = Clock::now();
      mark_changed();
    }
    if (options_.created) options_.created({{name, uid}});
  }

  void on_pod(const kube::WatchEvent& event) {
    if (event.type == "DELETED") return;  // what it showed is kept
    std::lock_guard lock(mutex_);
    auto found = index_.find(job_of_pod(event.object));
    if (found == index_.end()) return;
    JobProgress& job = jobs_[found->second];
    if (retired_uids_.count(controller_uid_of(event.object)) || stopping_.count(job.name))
      return;  // a recreated Job's old pod, or a pod of a Job stopped early
    settle_since_ = {};  // pods still arrive: the wait for the rest starts again
    PodProgress& pod = job.pods[name_of(event.object)];
    update_from_pod(pod, event.object);
    if (pod.scheduled && options_.recovery.count(job.name)) started_.insert(job.name);
    apply_events(name_of(event.object), pod);
    if (pod.has_output()) pod_events_.erase(pod.name);  // what they said is applied; no more are read
    if (auto last = last_job_.find(job.name); last != last_job_.end()) update_from_job(job, last->second);
    note_exhausted(job);
    if (job.state == JobState::Pending && pod.phase == "Running") job.state = JobState::Running;
    mark_changed();
  }

  // Ctrl-C or an error with Jobs still to create: nobody will create them now.
  void drop_queued(const std::string& reason) {
    std::lock_guard lock(mutex_);
    for (auto& job : jobs_)
      if (queued_.count(job.name)) {
        job.state = JobState::Failed;
        job.reason = reason;
      }
    queued_.clear();
    options_.to_create.clear();
  }

  void mark_changed() {
    dirty_ = true;
    changed_.notify_all();
  }

  std::size_t in_flight() const {
    std::size_t count = 0;
    for (const auto& job : jobs_) count += !is_finished(job.state) && !queued_.count(job.name);
    return count;
  }

  // Creates Jobs while the cap allows, at most kCreateBatch before the loop looks at the
  // view and Ctrl-C again (in_flight() reads every Job: once per batch, not once per Job).
  void create_up_to_cap() {
    std::size_t room = 0;
    {
      std::lock_guard lock(mutex_);
      const std::size_t cap = static_cast<std::size_t>(options_.max_in_flight);
      const std::size_t busy = in_flight();
      room = std::min({busy < cap ? cap - busy : 0, options_.to_create.size(), kCreateBatch});
    }
    create_round(room);
  }

  // Creates `count` Jobs (at most those still queued), then tells options_.created of them.
  void create_round(std::size_t count) {
    std::vector<std::pair<std::string, std::string>> created;
    while (count-- > 0 && !options_.to_create.empty()) create_next(created);
    if (options_.created && !created.empty()) options_.created(created);
  }

  void create_next(std::vector<std::pair<std::string, std::string>>& created) {
    const kube::PreparedCreate create = std::move(options_.to_create.front());
    options_.to_create.pop_front();
    std::string uid;
    const bool recoverable = options_.recovery.count(create.name) > 0;
    cluster_.send_create(create, options_.created || recoverable ? &uid : nullptr);
    created.emplace_back(create.name, uid);
    std::lock_guard lock(mutex_);
    queued_.erase(create.name);
    if (recoverable) {
      uids_[create.name] = uid;
      pending_since_[create.name] = Clock::now();
    }
    mark_changed();
  }

  // Queues the log of every pod whose log is to be read (once), takes the results of the others
  // from their termination messages, and keeps up to max_log_streams of them streaming on the
  // cluster's event loop; the rest wait for a free slot, then are read whole (their pods have
  // finished by then, or they stream on).
  void start_logs() {
    for (auto& job : jobs_)
      for (auto& [name, pod] : job.pods) {
        if (!pod.has_output() || logs_started_.count(name) || pod.results_from_message) continue;
        if (!read_log_of(job, pod)) continue;
        logs_started_.insert(name);
        const std::string prefix = pod.index >= 0 ? job.name + "/" + std::to_string(pod.index) : job.name;
        logs_waiting_.push_back({job.name, name, prefix});
      }
    stream_waiting_logs();
  }

  // Fills the free log stream slots from the queue; with mutex_ held.
  void stream_waiting_logs() {
    const auto cap = static_cast<std::size_t>(std::max(1, options_.max_log_streams));
    while (active_logs_ < cap && !logs_waiting_.empty()) {
      ++active_logs_;
      follow_log(logs_waiting_.front(), 0);
      logs_waiting_.pop_front();
    }
  }

  // Whether `pod` (with output, its log not read yet) is to have its log read now. Under
  // LogPolicy::Failed, a finished pod whose results came in its termination message has them
  // recorded here instead.
  bool read_log_of(const JobProgress& job, PodProgress& pod) {
    if (options_.logs == LogPolicy::All || pod.log_lines > 0) return true;  // > 0: read in part before
    // The first pods with output: streamed, or read whole when they ended before a reader came.
    if (first_logs_given_ < static_cast<std::size_t>(options_.max_log_streams)) {
      ++first_logs_given_;
      return true;
    }
    if (!terminal_phase(pod.phase)) return false;
    if (pod.phase == "Failed" || pod.exit_code.value_or(1) != 0) return true;
    const auto results = complete_results(pod.termination_message);
    if (!results) return true;
    for (const auto& line : *results) {
      sink_.result_line(job.name, line, pod.index);
      observe_result(job.name, line);
    }
    pod.results_from_message = true;
    pod.termination_message.clear();  // recorded: thousands of pods need not keep theirs
    mark_changed();
    return false;
  }

  struct PendingLog {
    std::string job, pod, prefix;
  };

  // One attempt at a pod's log; with mutex_ held. Lines the record has already are skipped.
  void follow_log(const PendingLog& log, int attempt) {
    auto skip = std::make_shared<int>(pod_of(log.job, log.pod).log_lines);
    kube::LogOptions options;
    options.cancel = &stop_;
    cluster_.start_follow_logs(
        options_.namespace_name, log.pod, options,
        [this, log, skip](std::string_view text) {
          if ((*skip)-- > 0) return true;
          std::lock_guard lock(mutex_);
          PodProgress& pod = pod_of(log.job, log.pod);
          ++pod.log_lines;
          const std::string line(text);
          sink_.log_line(log.job, line, pod.index);
          view_.log(log.prefix, line);
          observe_result(log.job, line);
          return true;
        },
        [this, log, attempt](kube::LogStats, std::exception_ptr error) {
          log_ended(log, attempt, error);
        });
  }

  void log_ended(const PendingLog& log, int attempt, std::exception_ptr error) {
    std::lock_guard lock(mutex_);
    if (error && retry_log(log, attempt, error)) return;
    --active_logs_;
    logs_done_.insert(log.pod);
    if (!stop_) stream_waiting_logs();  // at once: the main loop may sleep for a while
    mark_changed();
  }

  // Whether a log that could not be read is asked for again shortly; with mutex_ held.
  bool retry_log(const PendingLog& log, int attempt, std::exception_ptr error) {
    try {
      std::rethrow_exception(error);
    } catch (const kube::ApiError& refused) {
      // 400 while the container still waits to start: ask again shortly, unless the pod
      // ended without its container ever starting (an image that could not be pulled until
      // the deadline): then there is no log to wait for.
      if (refused.status() != 400) {
        warn(log.prefix, refused.what());
        return false;
      }
      const PodProgress& pod = pod_of(log.job, log.pod);
      if (((pod.phase == "Failed" || pod.phase == "Succeeded") && !pod.exit_code) || stop_ || attempt + 1 >= 50)
        return false;
      cluster_.after(std::chrono::milliseconds(200), [this, log, attempt] {
        if (stop_) return log_ended(log, attempt, nullptr);
        std::lock_guard lock(mutex_);
        follow_log(log, attempt + 1);
      });
      return true;
    } catch (const std::exception& failure) {
      warn(log.prefix, failure.what());
    }
    return false;
  }

  // With mutex_ held.
  void warn(const std::string& prefix, const std::string& message) {
    view_.log(prefix, "gkebuild: the log could not be read: " + message);
  }

  PodProgress& pod_of(const std::string& job, const std::string& pod) { return jobs_[index_.at(job)].pods[pod]; }

  // Every Job finished, and every pod the Job counted seen finished with its log read.
  bool finished_locked() {
    if (!options_.to_create.empty()) return false;
    for (const auto& job : jobs_) {
      if (!is_finished(job.state)) return false;
      const json status = last_job_.count(job.name) ? last_job_[job.name].value("status", json::object()) : json();
      const int counted = status.is_object() ? status.value("succeeded", 0) + status.value("failed", 0) : 0;
      int seen = 0;
      for (const auto& [name, pod] : job.pods) seen += terminal_phase(pod.phase);
      if (seen < counted && (!pods_listed_ || !settle_deadline_passed())) return false;
    }
    return logs_waiting_.empty() && logs_started_.size() == logs_done_count();
  }

  // Pods that finished with their Job may reach the pod watch a little later (an Indexed Job's
  // 10,000 pods, many seconds later); wait for them while they keep coming, up to 5 s of silence.
  bool settle_deadline_passed() {
    if (settle_since_ == Clock::time_point{}) settle_since_ = Clock::now();
    return Clock::now() - settle_since_ > std::chrono::seconds(5);
  }

  std::size_t logs_done_count() const { return logs_done_.size(); }

  // The record and the view change at most ten times a second; for a sweep of hundreds of Jobs
  // once a second, or less often where that keeps publishing under 2% of the time: each publish
  // rewrites the whole record (a 10,000-Job run.json takes about 0.2 s), so a fixed pace would
  // make following cost the square of the sweep's size.
  bool publish_due() const {
    const auto pace = jobs_.size() < 200 ? std::chrono::milliseconds(100)
                                         : std::max<Clock::duration>(std::chrono::seconds(1), 50 * publish_cost_);
    return Clock::now() - last_publish_ >= pace;
  }

  void publish() {
    last_publish_ = Clock::now();
    std::vector<std::pair<std::string, std::string>> lines;
    for (const auto& job : jobs_)
      lines.emplace_back(job.name, queued_.count(job.name) ? "queued (at most " +
                                                                 std::to_string(options_.max_in_flight) +
                                                                 " Jobs in flight)"
                                                           : job.describe());
    view_.show(lines);
    sink_.jobs_changed(jobs_);
    dirty_ = false;
    publish_cost_ = Clock::now() - last_publish_;
  }

  kube::ClusterApi& cluster_;
  std::vector<JobProgress>& jobs_;
  FollowOptions options_;
  RunSink& sink_;
  FollowView& view_;
  std::map<std::string, std::size_t> index_;
  std::set<std::string> queued_;
  std::map<std::string, json> last_job_;
  std::map<std::string, json> last_workload_;  // Job name -> its Kueue Workload
  bool no_kueue_ = false;                       // the cluster serves no Kueue Workloads
  int watches_running_ = 0;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool dirty_ = true;
  std::exception_ptr failure_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> pods_listed_{false};  // the pod watch has delivered its first list
  std::set<std::string> logs_started_;
  std::size_t first_logs_given_ = 0;  // LogPolicy::Failed: the first pods' logs, read in any case
  std::set<std::string> logs_done_;
  std::deque<PendingLog> logs_waiting_;
  std::size_t active_logs_ = 0;  // logs streaming, or waiting to be asked for again
  std::map<std::string, std::map<std::string, kube::ObjectEvent>> pod_events_;  // pod -> event name -> event
  Clock::time_point settle_since_{};
  // Recovery: the requests that (re)create recoverable Jobs (their current alternative's), the
  // uid of each one's current Job and of those deleted to recreate them, when each started to
  // wait for nodes, which have a pod scheduled, and what is to be recreated.
  std::map<std::string, kube::PreparedCreate> bodies_;
  std::map<std::string, std::string> uids_;
  std::set<std::string> retired_uids_;
  std::set<std::string> recreating_;
  std::set<std::string> started_;
  std::map<std::string, Clock::time_point> pending_since_;
  std::map<std::string, std::size_t> next_fallback_;
  std::deque<std::string> to_recreate_;
  std::map<std::string, std::string> exhausted_;  // Job -> why it failed with no gang restart left
  std::set<std::string> stopping_;                 // Jobs stopped early: what they say now is history
  std::deque<std::string> to_delete_;              // of those, the ones still to delete
  std::map<std::string, std::string> to_retire_;   // Job -> uid of the Job about to be deleted
  Clock::time_point last_publish_{};
  Clock::duration publish_cost_{};
};

}  // namespace

FollowEnd follow_run(kube::ClusterApi& cluster, std::vector<JobProgress>& jobs, FollowOptions options, RunSink& sink,
                     FollowView& view) {
  return Follower(cluster, jobs, std::move(options), sink, view).run();
}

}  // namespace gkebuild::submit
