#include "tool/submit/local_container.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "base/atomic_file.h"
#include "base/error.h"
#include "base/printable.h"
#include "tool/steps/local_runner/gpu_slots.h"
#include "tool/steps/local_runner/local_run.h"
#include "tool/steps/local_runner/shared_network.h"
#include "tool/submit/record_writer.h"

namespace gkebuild::submit {
namespace {

using nlohmann::json;

std::vector<std::string> strings(const json& container, const char* key) {
  std::vector<std::string> out;
  for (const auto& item : container.value(key, json::array())) out.push_back(item.get<std::string>());
  return out;
}

bool stopped(const std::atomic<bool>* flag) { return flag && flag->load(); }

const json* secret_key_ref(const json& item) {
  const auto from = item.find("valueFrom");
  if (from == item.end() || !from->is_object()) return nullptr;
  const auto ref = from->find("secretKeyRef");
  return ref == from->end() ? nullptr : &*ref;
}

// Only the run's own Secret exists here, and only in memory.
std::string secret_value(const json& ref, const std::string& variable, const RunSecret* secret) {
  const std::string key = ref.value("key", "");
  const std::string* value = secret ? secret->find(key) : nullptr;
  if (!value)
    throw Error(ErrorKind::kBadInput, "variable " + printable(variable) + " reads key " + printable(key) +
                                          " of Secret " + printable(ref.value("name", "")) +
                                          ", which a local run cannot read: only the experiment's secretEnv "
                                          "variables (from this environment) reach a local container");
  return *value;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> container_env(const json& container, int index,
                                                               const RunSecret* secret) {
  std::vector<std::pair<std::string, std::string>> env;
  for (const auto& item : container.value("env", json::array())) {
    const std::string name = item.value("name", "");
    if (const json* ref = secret_key_ref(item))
      env.emplace_back(name, secret_value(*ref, name, secret));
    else if (item.contains("value"))
      env.emplace_back(name, item["value"].is_string() ? item["value"].get<std::string>() : item["value"].dump());
    else if (item.dump().find("job-completion-index") != std::string::npos)
      env.emplace_back(name, std::to_string(index));
  }
  env.emplace_back("JOB_COMPLETION_INDEX", std::to_string(index));
  return env;
}

std::string expand_variables(const std::string& text, const std::vector<std::pair<std::string, std::string>>& env) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '$' || i + 1 >= text.size()) {
      out += text[i];
      continue;
    }
    if (text[i + 1] == '$') {
      out += '$';
      ++i;
      continue;
    }
    const auto close = text.find(')', i);
    if (text[i + 1] != '(' || close == std::string::npos) {
      out += text[i];
      continue;
    }
    const std::string name = text.substr(i + 2, close - i - 2);
    const std::string* value = nullptr;
    for (const auto& [key, v] : env)
      if (key == name) value = &v;  // the last definition wins, as in Kubernetes
    if (!value) {
      out += text[i];
      continue;
    }
    out += *value;
    i = close;
  }
  return out;
}

LocalJobs::LocalJobs(const plan::RunPlan& plan, std::filesystem::path layout, std::string image_digest,
                     local_runner::LocalDirs dirs, bool gpus, LocalNetwork network,
                     const std::atomic<bool>* interrupted, const std::atomic<bool>* forced)
    : plan_(plan), layout_(std::move(layout)), image_(std::move(image_digest)), dirs_(std::move(dirs)),
      gpus_(gpus), network_(network), interrupted_(interrupted), forced_(forced) {
  for (const auto& job : plan.jobs) jobs_.push_back(JobProgress{job.name});
  stop_.resize(jobs_.size());
  stopped_why_.resize(jobs_.size());
}

void LocalJobs::observe(std::size_t index, const std::string& line) {
  if (!stopper_) return;
  const json result = result_of(line);
  if (result.is_null()) return;
  for (const auto& [name, why] : stopper_->observe(jobs_[index].name, result)) {
    const auto found = std::find_if(jobs_.begin(), jobs_.end(), [&](const JobProgress& job) { return job.name == name; });
    const auto stopped_index = static_cast<std::size_t>(found - jobs_.begin());
    if (found == jobs_.end() || is_finished(found->state) || stop_[stopped_index]) continue;
    stopped_why_[stopped_index] = why;
    stop_[stopped_index] = true;
  }
}

void LocalJobs::record_stop(std::size_t index, const std::string& reason) {
  JobProgress& job = jobs_[index];
  job.state = JobState::Stopped;
  job.reason = stopped_why_[index].empty() ? reason : stopped_why_[index];
}

void LocalJobs::run_at_once(int points, std::vector<int> gpus) {
  points_ = std::max(1, points);
  host_gpus_ = std::move(gpus);
}

int LocalJobs::gpus_wanted(std::size_t index) const {
  const plan::PlannedJob& planned = plan_.jobs[index];
  if (!gpus_ || host_gpus_.empty() || planned.gpus <= 0) return 0;
  // A Job that wants more GPUs than the machine has runs on all of them, as before.
  return std::min(planned.gpus * std::max(1, planned.nodes), static_cast<int>(host_gpus_.size()));
}

std::optional<std::vector<int>> LocalJobs::take_place(std::size_t index, std::size_t running) {
  if (running >= static_cast<std::size_t>(points_)) return std::nullopt;
  auto gpus = local_runner::assign_gpus(free_gpus_, gpus_wanted(index));
  if (gpus)
    for (const int gpu : *gpus) free_gpus_.erase(gpu);
  return gpus;
}

void LocalJobs::run_one(std::size_t index, const std::vector<int>& gpus, RunSink& sink, FollowView& view) {
  std::exception_ptr error;
  std::string what;
  try {
    if (plan_.jobs[index].nodes > 1) run_group(index, gpus, sink, view);
    else run_job(index, gpus, sink, view);
  } catch (const std::exception& e) {
    error = std::current_exception();
    what = e.what();
  } catch (...) {
    error = std::current_exception();
    what = "an unknown error";
  }
  std::lock_guard lock(mutex_);
  if (error) {
    // The image did not unpack or the runtime did not start: the record must not say
    // "running" for ever. The same cause stops the Jobs not started yet.
    if (!error_) {
      error_ = error;
      error_text_ = what;
    }
    JobProgress& job = jobs_[index];
    job.state = JobState::Failed;
    job.reason = what;
    for (auto& [name, pod] : job.pods)
      if (pod.phase == "Running") pod.phase = "Failed";
    try {
      publish(sink, view);
    } catch (...) {
      // The record could not be written (the error may be that): run() records the Jobs at the
      // end and reports the first error; this thread must end, giving its place back.
    }
  }
  free_gpus_.insert(gpus.begin(), gpus.end());
  ended_.push_back(index);
  changed_.notify_all();
}

FollowEnd LocalJobs::run(RunSink& sink, FollowView& view) {
  std::unique_lock lock(mutex_);
  publish(sink, view);
  free_gpus_ = {host_gpus_.begin(), host_gpus_.end()};
  std::map<std::size_t, std::thread> running;
  // Joins the threads of the Jobs that ended (they take the lock no more).
  const auto join_ended = [&] {
    std::vector<std::thread> done;
    for (const std::size_t index : ended_) done.push_back(std::move(running.extract(index).mapped()));
    ended_.clear();
    lock.unlock();
    for (auto& thread : done) thread.join();
    lock.lock();
  };
  const auto wait = [&] {  // the signal flag is polled, and passed on to every Job's containers
    changed_.wait_for(lock, std::chrono::milliseconds(50));
    if (stopped(interrupted_))
      for (auto& flag : stop_) flag = true;
  };
  for (std::size_t i = 0; i < jobs_.size(); ++i) {
    std::optional<std::vector<int>> gpus;
    for (;;) {
      join_ended();
      if (stopped(interrupted_) || error_ || (gpus = take_place(i, running.size()))) break;
      wait();
    }
    if (!gpus) break;
    running.emplace(i, std::thread([this, i, gpus = *gpus, &sink, &view] { run_one(i, gpus, sink, view); }));
  }
  for (join_ended(); !running.empty(); join_ended()) wait();
  if (error_) {
    end_unfinished(JobState::Failed, error_text_, "not run: " + error_text_);
    publish(sink, view);
    view.finish();
    std::rethrow_exception(error_);
  }
  view.finish();
  if (!stopped(interrupted_)) return FollowEnd::Finished;
  // Nothing goes on without this process: the record says which Jobs the signal stopped or skipped.
  end_unfinished(JobState::Stopped, "Stopped", "not run: stopped");
  publish(sink, view);
  return FollowEnd::Interrupted;
}

void LocalJobs::end_unfinished(JobState state, const std::string& started_reason, const std::string& unstarted_reason) {
  for (auto& job : jobs_) {
    if (is_finished(job.state)) continue;
    job.state = state;
    job.reason = job.pods.empty() ? unstarted_reason : started_reason;
    for (auto& [name, pod] : job.pods)
      if (pod.phase == "Running") pod.phase = "Failed";
  }
}

local_runner::ContainerSpec LocalJobs::container_spec(const json& container, int completion,
                                                     const std::vector<int>& gpus) const {
  local_runner::ContainerSpec spec;
  spec.layout_dir = layout_;
  spec.image = image_;
  spec.env = container_env(container, completion, secret_);
  for (const auto& word : strings(container, "command")) spec.command.push_back(expand_variables(word, spec.env));
  for (const auto& word : strings(container, "args")) spec.args.push_back(expand_variables(word, spec.env));
  spec.working_dir = container.value("workingDir", "");
  spec.gpus = gpus_ && (host_gpus_.empty() || !gpus.empty());  // GPUs shared out: only those given
  spec.gpu_indexes = gpus;
  spec.limits = local_runner::limits_from_resources(container.value("resources", json::object()));
  return spec;
}

void LocalJobs::run_job(std::size_t index, const std::vector<int>& gpus, RunSink& sink, FollowView& view) {
  const plan::PlannedJob& planned = plan_.jobs[index];
  JobProgress& job = jobs_[index];  // its fields under mutex_: publish() reads them from other threads
  const json& pod_spec = planned.manifest.object["spec"]["template"]["spec"];
  const json container = pod_spec["containers"][0];
  {
    std::lock_guard lock(mutex_);
    job.state = JobState::Running;
  }
  int completed = 0;
  bool ended = false;  // a container failed or was stopped
  for (int completion = 0; completion < planned.completions && !ended && !stop_[index] && !stopped(interrupted_);
       ++completion) {
    local_runner::ContainerSpec spec = container_spec(container, completion, gpus);
    spec.name = planned.completions > 1 ? job.name + "-" + std::to_string(completion) : job.name;
    spec.host_network = network_ == LocalNetwork::Host;
    spec.stop = &stop_[index];
    spec.force = forced_;
    spec.stop_grace = std::chrono::seconds(pod_spec.value("terminationGracePeriodSeconds", 10));
    const int pod_index = planned.completions > 1 ? completion : -1;
    PodProgress* pod = nullptr;  // a std::map's element stays where it is
    {
      std::lock_guard lock(mutex_);
      pod = &job.pods[spec.name];
      pod->name = spec.name;
      pod->index = pod_index;
      pod->node = "local";
      pod->phase = "Running";
      publish(sink, view);
    }
    const std::string prefix = pod_index >= 0 ? job.name + "/" + std::to_string(completion) : job.name;
    const auto result = local_runner::run_container(spec, dirs_, [&](std::string_view line, bool) {
      std::lock_guard lock(mutex_);  // whole lines, one Job's at a time
      sink.log_line(job.name, std::string(line), pod_index);
      view.log(prefix, std::string(line));
      ++pod->log_lines;
      observe(index, std::string(line));
    });
    std::lock_guard lock(mutex_);
    pod->phase = result.exit_code == 0 ? "Succeeded" : "Failed";
    pod->exit_code = result.exit_code;
    pod->start = result.start;
    pod->end = result.end;
    if (job.start.empty()) job.start = result.start;
    job.end = result.end;
    if (result.exit_code != 0) {
      // A container stopped by a signal to gkebuild (or `gkebuild delete`) did not fail.
      job.state = JobState::Failed;
      job.reason = result.reason.empty() ? "exit code " + std::to_string(result.exit_code) : result.reason;
      if (result.reason == "Stopped") record_stop(index, result.reason);
      ended = true;
    } else {
      ++completed;
    }
  }
  std::lock_guard lock(mutex_);
  // Every container exited 0: the Job finished, even if the stop came as the last one ended.
  if (job.state == JobState::Running && completed == planned.completions) job.state = JobState::Succeeded;
  if (job.state == JobState::Running)
    record_stop(index, "Stopped after " + std::to_string(completed) + " of " + std::to_string(planned.completions) +
                           " completions");
  publish(sink, view);
}

namespace {

// /etc/hosts of a multi-node Job's containers: every pod name on the one shared loopback.
std::string group_hosts(const std::string& job, const std::string& service, int nodes) {
  std::string hosts = "127.0.0.1\tlocalhost\n";
  for (int rank = 0; rank < nodes; ++rank) {
    const std::string pod = job + "-" + std::to_string(rank);
    hosts += "127.0.0.1\t" + pod + "." + service + " " + pod + "\n";
  }
  return hosts;
}

// The GPUs of one node of a multi-node Job given `gpus` in all: its own share of `per_node`,
// or all of them when the Job was given fewer than it wants (more than the machine has).
std::vector<int> rank_gpus(const std::vector<int>& gpus, int per_node, int nodes, int rank) {
  if (per_node <= 0 || gpus.size() != static_cast<std::size_t>(per_node) * static_cast<std::size_t>(nodes))
    return gpus;
  const auto first = gpus.begin() + static_cast<std::ptrdiff_t>(rank) * per_node;
  return {first, first + per_node};
}

}  // namespace

void LocalJobs::run_group(std::size_t index, const std::vector<int>& gpus, RunSink& sink, FollowView& view) {
  const plan::PlannedJob& planned = plan_.jobs[index];
  JobProgress& job = jobs_[index];  // its fields under mutex_, as in run_job
  const json pod_spec = planned.manifest.object["spec"]["template"]["spec"];
  const json container = pod_spec["containers"][0];
  const int nodes = planned.nodes;
  const local_runner::SharedNetwork network;
  const auto hosts = dirs_.state / (job.name + ".hosts");  // gkebuild's own folder, not the checkout
  write_file_atomically(hosts, group_hosts(job.name, pod_spec.value("subdomain", job.name), nodes));
  std::atomic<bool> stop = false;
  std::atomic<int> running = nodes;
  std::vector<local_runner::ContainerResult> results(static_cast<std::size_t>(nodes));
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(nodes));
  std::vector<local_runner::ContainerSpec> specs;
  for (int rank = 0; rank < nodes; ++rank) {
    local_runner::ContainerSpec spec = container_spec(container, rank, rank_gpus(gpus, planned.gpus, nodes, rank));
    spec.name = job.name + "-" + std::to_string(rank);
    spec.hostname = spec.name;  // the pod's hostname in an Indexed Job
    spec.network_namespace = network.path();
    spec.hosts_file = hosts;
    spec.stop = &stop;
    spec.force = forced_;
    spec.stop_grace = std::chrono::seconds(pod_spec.value("terminationGracePeriodSeconds", 10));
    specs.push_back(std::move(spec));
  }
  {
    std::lock_guard lock(mutex_);
    job.state = JobState::Running;
    for (int rank = 0; rank < nodes; ++rank) {
      PodProgress& pod = job.pods[specs[static_cast<std::size_t>(rank)].name];
      pod.name = specs[static_cast<std::size_t>(rank)].name;
      pod.index = rank;
      pod.node = "local";
      pod.phase = "Running";
    }
    publish(sink, view);
  }
  std::vector<std::thread> ranks;
  for (int rank = 0; rank < nodes; ++rank)
    ranks.emplace_back([&, rank] {
      const auto& spec = specs[static_cast<std::size_t>(rank)];
      const std::string prefix = job.name + "/" + std::to_string(rank);
      try {
        results[static_cast<std::size_t>(rank)] = local_runner::run_container(spec, dirs_, [&](std::string_view line, bool) {
          std::lock_guard lock(mutex_);  // the sink, the view and the Job's progress, from every rank's thread
          sink.log_line(job.name, std::string(line), rank);
          view.log(prefix, std::string(line));
          ++job.pods[spec.name].log_lines;
          observe(index, std::string(line));
        });
      } catch (...) {
        errors[static_cast<std::size_t>(rank)] = std::current_exception();
      }
      // A node that fails fails the Job: the others are stopped, not left at a rendezvous.
      if (errors[static_cast<std::size_t>(rank)] || results[static_cast<std::size_t>(rank)].exit_code != 0) stop = true;
      --running;
    });
  while (running > 0) {  // Ctrl-C reaches every rank through the group's flag
    if (stopped(interrupted_) || stop_[index]) stop = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  for (auto& thread : ranks) thread.join();
  for (const auto& error : errors)
    if (error) std::rethrow_exception(error);
  std::lock_guard lock(mutex_);
  for (int rank = 0; rank < nodes; ++rank) {
    const auto& result = results[static_cast<std::size_t>(rank)];
    PodProgress& pod = job.pods[specs[static_cast<std::size_t>(rank)].name];
    pod.phase = result.exit_code == 0 ? "Succeeded" : "Failed";
    pod.exit_code = result.exit_code;
    pod.start = result.start;
    pod.end = result.end;
    if (job.start.empty() || result.start < job.start) job.start = result.start;
    if (result.end > job.end) job.end = result.end;
    // The first node that failed on its own (not stopped because another did) names the reason.
    if (result.exit_code != 0 && job.state == JobState::Running && result.reason != "Stopped") {
      job.state = JobState::Failed;
      job.reason = "node " + std::to_string(rank) + ": " +
                   (result.reason.empty() ? "exit code " + std::to_string(result.exit_code) : result.reason);
    }
  }
  if (job.state == JobState::Running) {
    // Every node exited 0: the Job finished; else a signal to gkebuild (or `delete`) stopped them all.
    const bool all_done = std::all_of(results.begin(), results.end(), [](const auto& r) { return r.exit_code == 0; });
    job.state = JobState::Succeeded;
    if (!all_done) record_stop(index, "Stopped");
  }
  publish(sink, view);
}

void LocalJobs::publish(RunSink& sink, FollowView& view) {
  std::vector<std::pair<std::string, std::string>> lines;
  for (const auto& job : jobs_) lines.emplace_back(job.name, job.describe());
  view.show(lines);
  sink.jobs_changed(jobs_);
}

}  // namespace gkebuild::submit
