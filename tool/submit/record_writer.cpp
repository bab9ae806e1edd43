#include "tool/submit/record_writer.h"

#include <algorithm>

#include "base/atomic_file.h"
#include "base/confined_path.h"
#include "tool/core/runrecord/results_file.h"
#include "tool/core/runrecord/run_store.h"

namespace gkebuild::submit {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// Lines of each pod's log already in logs/ (a follow that comes back skips them).
fs::path positions_file(const fs::path& run_dir) { return run_dir / "follow.json"; }

std::optional<runrecord::TimePoint> time_of(const std::string& text) {
  if (text.empty()) return std::nullopt;
  return runrecord::parse_timestamp(text);
}

std::string text_of(const std::optional<runrecord::TimePoint>& when) {
  return when ? runrecord::format_timestamp(*when) : "";
}

runrecord::JobState record_state(JobState state) {
  switch (state) {
    case JobState::Pending: return runrecord::JobState::pending;
    case JobState::Running: return runrecord::JobState::running;
    case JobState::Succeeded: return runrecord::JobState::succeeded;
    case JobState::Failed: return runrecord::JobState::failed;
    case JobState::Stopped: return runrecord::JobState::stopped;
  }
  return runrecord::JobState::pending;
}

// Where a Job runs, as run.json keeps it (a Job without a GPU names no accelerator): as planned,
// or the fallback alternative the follower moved it to. The one copy between the two forms.
void record_placement(runrecord::JobRecord& record, const plan::Placement& placement) {
  record.accelerator = placement.gpus > 0 ? std::optional<std::string>(placement.accelerator) : std::nullopt;
  record.gpus = placement.gpus;
  record.machine_type = placement.machine_type;
  record.spot = placement.spot;
  record.provisioning = placement.provisioning;
  record.nodes = placement.nodes;
}

plan::Placement placement_of(const runrecord::JobRecord& record) {
  return {record.accelerator.value_or(""), record.gpus, record.machine_type, record.spot, record.provisioning,
          record.nodes};
}

void update_job(runrecord::JobRecord& record, const JobProgress& job) {
  record.state = record_state(job.state);
  record.reason = job.state == JobState::Succeeded || job.state == JobState::Running ? "" : job.reason;
  if (job.state == JobState::Pending && record.reason.empty()) {
    const std::string words = job.describe();
    record.reason = words.starts_with("pending: ") ? words.substr(9) : "";
  }
  if (auto start = time_of(job.start)) record.start = start;
  if (auto end = time_of(job.end)) record.end = end;
  record.pods.clear();
  for (const auto& [name, pod] : job.pods)
    record.pods.push_back({name, pod.node, pod.exit_code, time_of(pod.start), time_of(pod.end)});
  record.recoveries.clear();
  for (const auto& recovery : job.recoveries)
    record.recoveries.push_back({recovery.kind, recovery.reason, time_of(recovery.at), recovery.left});
  if (job.placement) record_placement(record, *job.placement);  // moved to a fallback: alternative
}

// follow.json: pod -> log lines recorded, or -1 when its results came from its termination
// message (a follow that comes back must not record them twice).
void save_positions(const fs::path& run_dir, const std::vector<JobProgress>& jobs) {
  json positions = json::object();
  for (const auto& job : jobs)
    for (const auto& [name, pod] : job.pods)
      if (pod.log_lines > 0 || pod.results_from_message) positions[name] = pod.results_from_message ? -1 : pod.log_lines;
  write_file_atomically(positions_file(run_dir), positions.dump() + "\n");
}

}  // namespace

RecordWriter::RecordWriter(fs::path run_dir, runrecord::RunRecord record)
    : dir_(std::move(run_dir)), record_(std::move(record)) {
  for (std::size_t i = 0; i < record_.jobs.size(); ++i) job_index_.emplace(record_.jobs[i].name, i);
}

void RecordWriter::append_result(const std::string& job, json result, int index) {
  if (const auto found = job_index_.find(job); found != job_index_.end()) {
    const auto& entry = record_.jobs[found->second];
    result["parameters"] = entry.parameters;
    result["accelerator"] = entry.accelerator ? json(*entry.accelerator) : json(nullptr);
    if (entry.nodes > 1 && index >= 0) result["node_rank"] = index;  // a multi-node Job's pod
  }
  runrecord::append_result_line(dir_, job, result);
}

void RecordWriter::jobs_changed(const std::vector<JobProgress>& jobs) {
  update_record(record_, jobs);
  runrecord::save_run(dir_, record_);
  save_positions(dir_, jobs);
}

void RecordWriter::log_line(const std::string& job, const std::string& line, int index) {
  // A sweep of thousands of Jobs must not hold thousands of files open: keep a few, and
  // reopen (appending) the one a later line needs.
  if (!logs_.count(job) && logs_.size() >= kOpenLogFiles) logs_.erase(logs_.begin());
  auto& out = logs_[job];
  if (!out) out = std::make_unique<std::ofstream>(dir_ / "logs" / (job + ".log"), std::ios::app);
  *out << line << "\n";
  out->flush();
  result_line(job, line, index);
}

void RecordWriter::result_line(const std::string& job, const std::string& line, int index) {
  if (json result = result_of(line); !result.is_null()) append_result(job, std::move(result), index);
}

runrecord::RunRecord new_record(const project::Project& project, const plan::RunPlan& plan, const std::string& run,
                                const std::string& target) {
  runrecord::RunRecord record;
  record.run = run;
  record.project = project.name;
  record.experiment = plan.experiment;
  record.target = target;
  record.namespace_name = plan.namespace_name;
  record.region = plan.region;
  record.created = runrecord::Clock::now();
  record.images = plan.images;
  if (const project::Experiment* experiment = project.find_experiment(plan.experiment); experiment && experiment->search) {
    const auto& search = *experiment->search;
    runrecord::SearchRecord entry{project::to_string(search.algorithm), "", true, ""};
    if (search.objective) entry.metric = search.objective->metric, entry.minimize = search.objective->minimize;
    if (experiment->early_stopping) entry.stopping = "median";
    if (search.algorithm == project::SearchAlgorithm::Halving) entry.stopping = "halving";
    record.search = entry;
  }
  for (const auto& job : plan.jobs) {
    runrecord::JobRecord entry;
    entry.name = job.name;
    record_placement(entry, job);  // a CPU-only Job's accelerator is null, as a local CPU run's
    entry.parameters = job.parameters;
    record.jobs.push_back(std::move(entry));
  }
  return record;
}

json result_of(const std::string& line) {
  const auto start = line.find_first_not_of(" \t");
  if (start == std::string::npos || line[start] != '{') return nullptr;
  json parsed = json::parse(line, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object()) return nullptr;
  auto schema = parsed.find("schema");
  if (schema == parsed.end() || !schema->is_string() || *schema != runrecord::kResultSchema) return nullptr;
  return parsed;
}

std::optional<std::vector<std::string>> complete_results(const std::string& message) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < message.size()) {
    std::size_t end = message.find('\n', start);
    if (end == std::string::npos) end = message.size();
    std::string line = message.substr(start, end - start);
    start = end + 1;
    if (line == kResultsTruncated) return std::nullopt;
    if (!result_of(line).is_null()) lines.push_back(std::move(line));
  }
  if (lines.empty()) return std::nullopt;
  return lines;
}

void update_record(runrecord::RunRecord& record, const std::vector<JobProgress>& jobs) {
  bool all_finished = true;
  std::map<std::string_view, runrecord::JobRecord*> entries;  // by name: a sweep has thousands
  for (auto& entry : record.jobs) entries.emplace(entry.name, &entry);
  for (const auto& job : jobs) {
    all_finished = all_finished && is_finished(job.state);
    if (auto entry = entries.find(job.name); entry != entries.end()) update_job(*entry->second, job);
  }
  if (all_finished && !record.finished) record.finished = runrecord::Clock::now();
  if (all_finished) record.runner.reset();  // nothing of a local run goes on any more
}

std::vector<JobProgress> progress_from_record(const fs::path& run_dir, const runrecord::RunRecord& record) {
  json positions = json::object();
  if (const auto text = read_confined_file(run_dir, positions_file(run_dir).filename(), runrecord::kMaxRecordBytes)) {
    positions = json::parse(*text, nullptr, false);
    if (!positions.is_object()) positions = json::object();
  }
  std::vector<JobProgress> jobs;
  for (const auto& entry : record.jobs) {
    JobProgress job;
    job.name = entry.name;
    job.state = *parse_job_state(std::string(runrecord::to_string(entry.state)));
    job.reason = entry.reason;
    job.start = text_of(entry.start);
    job.end = text_of(entry.end);
    for (const auto& recovery : entry.recoveries)
      job.recoveries.push_back({recovery.kind, recovery.reason, text_of(recovery.at), recovery.left});
    if (std::any_of(entry.recoveries.begin(), entry.recoveries.end(),
                    [](const auto& recovery) { return recovery.kind == "fallback"; }))
      job.placement = placement_of(entry);
    for (const auto& pod : entry.pods) {
      PodProgress progress;
      progress.name = pod.name;
      progress.node = pod.node;
      progress.exit_code = pod.exit_code;
      progress.start = text_of(pod.start);
      progress.end = text_of(pod.end);
      const int position = positions.value(pod.name, 0);
      progress.log_lines = std::max(position, 0);
      progress.results_from_message = position < 0;
      job.pods[pod.name] = progress;
    }
    jobs.push_back(std::move(job));
  }
  return jobs;
}

}  // namespace gkebuild::submit
