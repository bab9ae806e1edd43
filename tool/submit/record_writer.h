// The run record a follow keeps up to date (format: tool/core/runrecord/README.md): run.json
// rewritten atomically whenever a Job changes, logs/JOB.log appended line by line, and
// each result line a workload prints appended to results.jsonl with "job" added.
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tool/core/project/project.h"
#include "tool/core/runrecord/run_record.h"
#include "tool/submit/follower.h"
#include "tool/steps/plan/run_plan.h"

namespace gkebuild::submit {

class RecordWriter : public RunSink {
 public:
  RecordWriter(std::filesystem::path run_dir, runrecord::RunRecord record);

  void jobs_changed(const std::vector<JobProgress>& jobs) override;
  void log_line(const std::string& job, const std::string& line, int index) override;
  // A multi-node Job's result lines get "node_rank": the completion index of the pod.
  void result_line(const std::string& job, const std::string& line, int index) override;

  const runrecord::RunRecord& record() const { return record_; }
  const std::filesystem::path& dir() const { return dir_; }

 private:
  // Appends a result line of `job` with its Job's sweep point and accelerator, as in run.json.
  void append_result(const std::string& job, nlohmann::json result, int index);

  std::filesystem::path dir_;
  runrecord::RunRecord record_;
  std::map<std::string, std::size_t> job_index_;  // Job name -> its place in record_.jobs
  static constexpr std::size_t kOpenLogFiles = 32;
  std::map<std::string, std::unique_ptr<std::ofstream>> logs_;  // at most kOpenLogFiles open
};

// A new run's record: its Jobs pending, as planned. `target` is "cluster" or "local".
runrecord::RunRecord new_record(const project::Project& project, const plan::RunPlan& plan, const std::string& run,
                                const std::string& target);

// The JSON object of a workload result line (schema gkebuild.workload.v1), or null.
nlohmann::json result_of(const std::string& line);

// The note a gkebuild workload ends its termination log with when its results did not all
// fit (workloads/common/results.h, kResultsTruncated).
inline constexpr const char* kResultsTruncated = "gkebuild: more results in the log";
// The result lines of a pod's termination message when it holds all of the pod's results: at
// least one, and no kResultsTruncated; nullopt otherwise (then its log has to be read).
std::optional<std::vector<std::string>> complete_results(const std::string& message);

// Jobs as the follower tracks them, from a record (re-attaching to a run): states,
// pods, and how many log lines of each pod the record already holds (follow.json).
std::vector<JobProgress> progress_from_record(const std::filesystem::path& run_dir,
                                              const runrecord::RunRecord& record);

// Applies the follower's view of the Jobs to the record; `finished` is set once every Job has.
void update_record(runrecord::RunRecord& record, const std::vector<JobProgress>& jobs);

}  // namespace gkebuild::submit
