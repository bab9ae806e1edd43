#include "tool/submit/local_runner.h"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "tool/core/runrecord/run_store.h"
#include "tool/steps/local_runner/local_run.h"

namespace gkebuild::submit {
namespace {

namespace fs = std::filesystem;

// Field 22 of /proc/PID/stat (the start time in clock ticks after boot); 0 when there is no
// such process, or only its zombie (it has ended; its parent has not asked yet). The command
// name (field 2) may hold spaces and ')': fields are counted after its last ')'.
unsigned long long start_ticks(long pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto close = text.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream fields(text.substr(close + 1));
  std::string field;
  for (int i = 3; i <= 22 && fields >> field; ++i) {
    if (i == 3 && (field == "Z" || field == "X")) return 0;
    if (i == 22) return std::stoull(field);
  }
  return 0;
}

// Where submit --local keeps containers: PROJECT/.gkebuild/local beside PROJECT/.gkebuild/runs/RUN.
fs::path work_dir_of(const fs::path& run_dir) { return run_dir.parent_path().parent_path() / "local"; }

bool unfinished(runrecord::JobState state) {
  return state == runrecord::JobState::pending || state == runrecord::JobState::running;
}

}  // namespace

runrecord::LocalRunner current_runner() {
  const long pid = ::getpid();
  return {pid, start_ticks(pid)};
}

bool runner_alive(const runrecord::LocalRunner& runner) {
  return runner.pid > 0 && start_ticks(runner.pid) == runner.start_ticks;
}

bool settle_dead_local_run(const fs::path& run_dir, runrecord::RunRecord& record) {
  if (record.target != "local" || !record.runner || runner_alive(*record.runner)) return false;
  const fs::path work_dir = work_dir_of(fs::absolute(run_dir));
  for (auto& job : record.jobs) {
    if (!unfinished(job.state)) continue;
    for (const auto& pod : job.pods) {
      try {
        local_runner::stop_container(pod.name, work_dir);
      } catch (const std::exception&) {
        // No runtime on PATH any more: nothing it started can still run from here.
      }
    }
    job.reason = job.pods.empty() ? "not run: the gkebuild that ran it ended" : "Stopped: the gkebuild that ran it ended";
    job.state = runrecord::JobState::stopped;
  }
  record.runner.reset();
  if (!record.finished) record.finished = runrecord::Clock::now();
  runrecord::save_run(run_dir, record);
  return true;
}

void stop_local_run(const fs::path& run_dir, runrecord::RunRecord& record, std::ostream& out) {
  if (record.runner && runner_alive(*record.runner)) {
    const auto pid = static_cast<pid_t>(record.runner->pid);
    ::kill(pid, SIGTERM);
    // The runner stops its containers: SIGTERM, SIGKILL after their grace period (10 s unless
    // the Job sets terminationGracePeriodSeconds), then removes them and records the Jobs.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(2);
    while (runner_alive(*record.runner) && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (runner_alive(*record.runner)) ::kill(pid, SIGKILL);
    for (int i = 0; i < 100 && runner_alive(*record.runner); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    record = runrecord::load_run(run_dir);
  }
  settle_dead_local_run(run_dir, record);
  int stopped = 0;
  for (const auto& job : record.jobs) stopped += job.state == runrecord::JobState::stopped;
  out << "run " << record.run << " ran locally: nothing of it runs any more";
  if (stopped > 0) out << "; " << stopped << " of its Jobs stopped";
  out << "\n";
}

}  // namespace gkebuild::submit
