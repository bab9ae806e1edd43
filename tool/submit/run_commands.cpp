#include "tool/submit/run_commands.h"

#include "base/atomic_file.h"
#include "tool/submit/managed_run.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <fstream>
#include <map>
#include <string>
#include <system_error>
#include <vector>

#include "base/atomic_file.h"
#include "base/confined_path.h"
#include "base/printable.h"
#include "base/text_table.h"
#include "tool/core/kube/api_error.h"
#include "tool/core/kube/events.h"
#include "tool/core/kube/http_cluster_api.h"
#include "tool/core/kube/objects.h"
#include "tool/core/runrecord/run_store.h"
#include "tool/steps/cluster/access.h"
#include "tool/steps/plan/run_id.h"
#include "tool/submit/finish.h"
#include "tool/submit/local_run_process.h"
#include "tool/submit/managed_run.h"
#include "tool/submit/record_writer.h"
#include "tool/steps/plan/run_plan.h"
#include "tool/submit/run_secret.h"

namespace gkebuild::submit {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

struct LoadedRun {
  fs::path dir;
  runrecord::RunRecord record;
};

// A local run whose gkebuild was killed is settled as it is read (local_run_process.h). A reader
// that may not change it (another user's run: run.json is the owner's alone) sees it as it is.
runrecord::RunRecord load_settled(const fs::path& dir) {
  auto record = runrecord::load_run(dir);
  try {
    auto settled = record;
    if (settle_dead_local_run(dir, settled)) record = std::move(settled);
  } catch (const std::system_error&) {
  }
  return record;
}

LoadedRun load(const RunCommandOptions& options) {
  const fs::path dir = runrecord::find_run(options.project_dir, options.run);
  return {dir, load_settled(dir)};
}

bool on_cluster(const runrecord::RunRecord& record) { return record.target == "cluster"; }

std::string counts(const runrecord::RunRecord& record) {
  int by_state[5] = {0, 0, 0, 0, 0};
  for (const auto& job : record.jobs) ++by_state[static_cast<int>(job.state)];
  std::string text = std::to_string(by_state[2]) + "/" + std::to_string(record.jobs.size()) + " succeeded";
  if (by_state[3]) text += ", " + std::to_string(by_state[3]) + " failed";
  if (by_state[4]) text += ", " + std::to_string(by_state[4]) + " stopped";
  if (by_state[1]) text += ", " + std::to_string(by_state[1]) + " running";
  if (by_state[0]) text += ", " + std::to_string(by_state[0]) + " pending";
  return text;
}

// The cluster of the context the run's record names.
std::shared_ptr<kube::ClusterApi> cluster_for(const RunCommandOptions& options, const runrecord::RunRecord& record,
                                              const kube::ConnectCluster& connect) {
  return connect(cluster::cluster_access(options.kubeconfig, record.context));
}

// Jobs that Kueue holds back: their Workloads say why (an inadmissible queue), one list
// of the namespace's Workloads for all of them; asked only when some Job is queued.
void explain_queued(kube::ClusterApi& cluster, const std::string& namespace_name, std::vector<JobProgress>& jobs) {
  if (std::none_of(jobs.begin(), jobs.end(), [](const JobProgress& job) { return !job.queued.empty(); })) return;
  json workloads;
  try {
    workloads = cluster.list(kube::resource_type("kueue.x-k8s.io/v1beta1", "Workload"), namespace_name, {});
  } catch (const kube::ApiError& error) {
    if (error.status() != 404) throw;
    for (auto& job : jobs)
      if (!job.queued.empty()) job.queued = kNoKueue;
    return;
  }
  const json items = workloads.value("items", json::array());
  std::map<std::string, const json*> by_job;
  for (const auto& workload : items) by_job[job_of_workload(workload)] = &workload;
  for (auto& job : jobs)
    if (auto found = by_job.find(job.name); !job.queued.empty() && found != by_job.end())
      update_from_workload(job, *found->second);
}

// A managed run: the record and results its controller keeps in the run's state ConfigMap
// replace the local ones (the laptop's copy was made before the controller began).
void refresh_managed(kube::ClusterApi& cluster, LoadedRun& run, std::ostream& err) {
  auto state = read_managed_state(cluster, run.record.namespace_name, plan::cluster_run_id(run.record.run));
  if (!state) {
    err << "run " << printable(run.record.run) << ": its controller's state (ConfigMap "
        << state_config_map(plan::cluster_run_id(run.record.run)) << ") is gone; showing the record as it was\n";
    return;
  }
  if (state->record.run != run.record.run)
    throw Error(ErrorKind::kFailed, "the state ConfigMap of run " + printable(run.record.run) + " holds run " +
                                        printable(state->record.run));
  state->record.context = run.record.context;
  write_file_atomically(run.dir / "results.jsonl", state->results);
  runrecord::save_run(run.dir, state->record);
  run.record = std::move(state->record);
}

// The Jobs and pods of an unfinished cluster run as the cluster has them now, into the record.
void refresh(const RunCommandOptions& options, LoadedRun& run, const kube::ConnectCluster& connect) {
  const auto cluster = cluster_for(options, run.record, connect);
  if (run.record.managed) return refresh_managed(*cluster, run, *options.console.err);
  kube::ListOptions selectors;
  selectors.label_selector = plan::run_selector(plan::cluster_run_id(run.record.run));
  const json jobs = cluster->list(kube::resource_type("batch/v1", "Job"), run.record.namespace_name, selectors);
  const json pods = cluster->list(kube::resource_type("v1", "Pod"), run.record.namespace_name, selectors);
  auto progress = progress_from_record(run.dir, run.record);
  for (auto& job : progress) {
    if (job.state == JobState::Pending) job.reason.clear();  // said again from what the cluster shows now
    for (const auto& pod : pods.value("items", json::array()))
      if (job_of_pod(pod) == job.name) update_from_pod(job.pods[pod["metadata"].value("name", "")], pod);
    // Why a pod waits is in the scheduler's and the autoscaler's events.
    for (auto& [name, pod] : job.pods)
      if (pod.phase == "Pending" && !pod.scheduled)
        update_from_events(pod, kube::events_in(cluster->list(kube::resource_type("v1", "Event"),
                                                              run.record.namespace_name,
                                                              kube::events_selector("Pod", name))));
    for (const auto& object : jobs.value("items", json::array()))
      if (object["metadata"].value("name", "") == job.name) update_from_job(job, object);
  }
  explain_queued(*cluster, run.record.namespace_name, progress);
  update_record(run.record, progress);
  runrecord::save_run(run.dir, run.record);
}

std::string when(const std::optional<runrecord::TimePoint>& time) {
  return time ? runrecord::format_timestamp(*time) : "-";
}

// ", after 1 failed pod (exit code 3)": a Job that succeeded once the Job controller replaced
// a failed pod (backoffLimit) says so; the record keeps every pod.
std::string failed_attempts(const runrecord::JobRecord& job) {
  if (job.state != runrecord::JobState::succeeded) return "";
  std::vector<std::string> codes;
  for (const auto& pod : job.pods)
    if (pod.exit_code && *pod.exit_code != 0) codes.push_back(std::to_string(*pod.exit_code));
  if (codes.empty()) return "";
  std::string list;
  for (const auto& code : codes) list += (list.empty() ? "" : ", ") + code;
  return ", after " + std::to_string(codes.size()) + " failed pod" + (codes.size() > 1 ? "s" : "") + " (exit code" +
         (codes.size() > 1 ? "s " : " ") + list + ")";
}

// Every name and reason comes from run.json, which a checkout may have planted: escaped.
// What the follower did to keep a Job going, one line each: "  gang restart 1 at T: why",
// "  fallback at T: left PLACEMENT: why".
void print_recoveries(const runrecord::JobRecord& job, std::ostream& out) {
  int restarts = 0;
  for (const auto& recovery : job.recoveries) {
    out << "  ";
    if (recovery.kind == "restart") out << "gang restart " << ++restarts;
    else out << "fallback";
    out << " at " << when(recovery.at);
    if (!recovery.left.empty()) out << ": left " << printable(recovery.left);
    out << ": " << printable(recovery.reason) << "\n";
  }
}

void print_status(const runrecord::RunRecord& record, std::ostream& out) {
  out << "run " << printable(record.run) << ": experiment " << printable(record.experiment) << ", "
      << printable(record.target);
  if (on_cluster(record))
    out << " (context " << printable(record.context) << ", namespace " << printable(record.namespace_name) << ")";
  out << "\ncreated " << runrecord::format_timestamp(record.created) << ", finished " << when(record.finished)
      << ": " << counts(record) << "\n";
  std::size_t width = 0;
  for (const auto& job : record.jobs) width = std::max(width, printable(job.name).size());
  for (const auto& job : record.jobs) {
    const std::string name = printable(job.name);
    out << name << std::string(width - name.size() + 2, ' ') << runrecord::to_string(job.state) << failed_attempts(job);
    if (!job.reason.empty()) out << ": " << printable(job.reason);
    out << "\n";
    print_recoveries(job, out);
  }
}

bool any_failed(const runrecord::RunRecord& record) {
  for (const auto& job : record.jobs)
    if (job.state == runrecord::JobState::failed) return true;
  return false;
}

void print_recorded_logs(const LoadedRun& run, std::ostream& out) {
  for (const auto& job : run.record.jobs) {
    // As run.json: only a regular file inside the run folder, never a planted symlink.
    const int fd = open_confined_file(run.dir, fs::path("logs") / (job.name + ".log"),
                                      std::numeric_limits<std::size_t>::max());
    if (fd < 0) continue;
    std::FILE* in = ::fdopen(fd, "r");
    char* line = nullptr;
    std::size_t capacity = 0;
    for (ssize_t length; (length = ::getline(&line, &capacity, in)) > 0;) {
      std::string_view text(line, static_cast<std::size_t>(length));
      if (text.ends_with('\n')) text.remove_suffix(1);
      out << "[" << printable(job.name) << "] " << printable_lines(text) << "\n";  // the record's bytes
    }
    std::free(line);
    std::fclose(in);
  }
  out.flush();
}

// The values of a run with secretEnv, from its Secret on the cluster (found by the run's label,
// not by a name the record gives): what `logs -f` reads is masked as the submit masked it.
RunSecret run_secret_of(kube::ClusterApi& cluster, const runrecord::RunRecord& record) {
  if (record.secret.empty() && record.secret_env.empty()) return {};
  kube::ListOptions selectors;
  selectors.label_selector = plan::run_selector(plan::cluster_run_id(record.run));
  const json secrets = cluster.list(kube::resource_type("v1", "Secret"), record.namespace_name, selectors);
  return RunSecret::from_cluster(secrets.value("items", json::array()));
}

Outcome follow_again(const RunCommandOptions& options, LoadedRun& run, const kube::ConnectCluster& connect) {
  const auto cluster = cluster_for(options, run.record, connect);
  auto jobs = progress_from_record(run.dir, run.record);
  RecordWriter record(run.dir, run.record);
  FollowOptions follow;
  follow.namespace_name = run.record.namespace_name;
  follow.run_id = plan::cluster_run_id(run.record.run);
  const Console& console = options.console;
  follow.interrupted = console.interrupted;
  FollowView view(*console.err, *console.out, console.terminal, console.terminal_rows);
  const RunSecret secret = run_secret_of(*cluster, run.record);
  mask_view(view, secret);
  MaskingSink sink(record, secret);
  const FollowEnd end = follow_run(*cluster, jobs, std::move(follow), sink, view);
  return finish_follow(end, record.record(), *console.err);
}

}  // namespace

namespace {

// One line of `gkebuild runs`: the record's columns, or the folder and why it cannot be read.
struct RunsRow {
  std::vector<std::string> cells;
  json object;
};

RunsRow runs_row(const fs::path& dir) {
  try {
    const auto record = load_settled(dir);
    int by_state[4] = {0, 0, 0, 0};
    for (const auto& job : record.jobs) ++by_state[static_cast<int>(job.state)];
    json object{{"run", record.run},
                {"experiment", record.experiment},
                {"target", record.target},
                {"created", runrecord::format_timestamp(record.created)},
                {"finished", record.finished ? json(runrecord::format_timestamp(*record.finished)) : json(nullptr)},
                {"jobs", {{"total", record.jobs.size()}, {"succeeded", by_state[2]}, {"failed", by_state[3]},
                          {"running", by_state[1]}, {"pending", by_state[0]}}}};
    return {{record.run, record.experiment, record.target, runrecord::format_timestamp(record.created),
             counts(record) + (record.finished ? "" : " (not finished)")},
            std::move(object)};
  } catch (const std::exception& error) {
    const std::string name = dir.filename().string();
    return {{name, "unreadable: " + std::string(error.what())}, json{{"run", name}, {"error", error.what()}}};
  }
}

// Names from the run folders and records are the user's bytes: escaped before printing.
void print_table(std::vector<std::vector<std::string>> rows, std::ostream& out) {
  for (auto& row : rows)
    for (auto& cell : row) cell = printable(cell);
  print_text_table(rows, out);
}

}  // namespace

Outcome list_runs_command(const RunCommandOptions& options) {
  std::vector<std::vector<std::string>> rows{{"RUN", "EXPERIMENT", "TARGET", "CREATED", "JOBS"}};
  json list = json::array();
  for (const auto& dir : runrecord::list_runs(options.project_dir)) {
    auto row = runs_row(dir);
    rows.push_back(std::move(row.cells));
    list.push_back(std::move(row.object));
  }
  if (options.json)
    *options.console.out << list.dump(2) << "\n";
  else if (rows.size() > 1)
    print_table(std::move(rows), *options.console.out);
  if (rows.size() == 1)  // no runs: no table, as kubectl get prints no header for no objects; a note on stderr
    *options.console.err << "no runs recorded under " << runrecord::runs_dir(options.project_dir).string() << "\n";
  return Outcome::kSucceeded;
}

Outcome status_command(const RunCommandOptions& options) { return status_command(options, kube::connect_over_http); }

Outcome status_command(const RunCommandOptions& options, const kube::ConnectCluster& connect) {
  auto run = load(options);
  if (options.refresh && on_cluster(run.record) && !run.record.finished) refresh(options, run, connect);
  if (options.json)
    *options.console.out << runrecord::to_json(run.record).dump(2) << "\n";
  else
    print_status(run.record, *options.console.out);
  return any_failed(run.record) ? Outcome::kFailed : Outcome::kSucceeded;
}

Outcome logs_command(const RunCommandOptions& options) { return logs_command(options, kube::connect_over_http); }

Outcome logs_command(const RunCommandOptions& options, const kube::ConnectCluster& connect) {
  auto run = load(options);
  print_recorded_logs(run, *options.console.out);
  if (!options.follow || run.record.finished) return Outcome::kSucceeded;
  if (!on_cluster(run.record)) {
    *options.console.err << "run " << printable(run.record.run) << " ran locally and did not finish; there is nothing to follow\n";
    return Outcome::kFailed;
  }
  return follow_again(options, run, connect);
}

Outcome delete_command(const RunCommandOptions& options) { return delete_command(options, kube::connect_over_http); }

Outcome delete_command(const RunCommandOptions& options, const kube::ConnectCluster& connect) {
  auto run = load(options);
  if (!on_cluster(run.record)) {
    stop_local_run(run.dir, run.record, *options.console.out);
    return Outcome::kSucceeded;
  }
  const auto cluster = cluster_for(options, run.record, connect);
  kube::ListOptions selectors;
  selectors.label_selector = plan::run_selector(plan::cluster_run_id(run.record.run));
  const auto& type = kube::resource_type("batch/v1", "Job");
  const json jobs = cluster->list(type, run.record.namespace_name, selectors);
  int deleted = 0;
  for (const auto& job : jobs.value("items", json::array()))
    deleted += cluster->remove(type, run.record.namespace_name, job["metadata"].value("name", ""),
                               kube::Propagation::Background);
  // An Indexed sweep's ConfigMap of points, a multi-node Job's headless Service and the run's
  // Secret (secretEnv) carry the run's label too; nothing else uses them, and the Job's TTL does
  // not take them. The Secret would go with its last owning Job anyway, but not before the
  // garbage collector came round, and not at all if no Job was ever created.
  for (const char* kind : {"ConfigMap", "Service", "Secret"}) {
    const auto& type = kube::resource_type("v1", kind);
    for (const auto& item : cluster->list(type, run.record.namespace_name, selectors).value("items", json::array()))
      cluster->remove(type, run.record.namespace_name, item["metadata"].value("name", ""),
                      kube::Propagation::Background);
  }
  for (auto& job : run.record.jobs)
    if (job.state == runrecord::JobState::pending || job.state == runrecord::JobState::running) {
      job.state = runrecord::JobState::failed;
      job.reason = "Deleted";
    }
  if (!run.record.finished) run.record.finished = runrecord::Clock::now();
  runrecord::save_run(run.dir, run.record);
  *options.console.out << "deleted " << deleted << " Jobs of run " << printable(run.record.run)
                       << " (their pods go with them)\n";
  return Outcome::kSucceeded;
}

}  // namespace gkebuild::submit
