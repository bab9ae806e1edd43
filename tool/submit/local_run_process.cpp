#include "tool/submit/local_run_process.h"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <optional>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "base/atomic_file.h"
#include "base/confined_path.h"
#include "tool/core/runrecord/run_store.h"

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

bool unfinished(runrecord::JobState state) {
  return state == runrecord::JobState::pending || state == runrecord::JobState::running;
}

}  // namespace

runrecord::LocalRunner current_runner() {
  const long pid = ::getpid();
  return {pid, start_ticks(pid)};
}

namespace {

bool alive(const runrecord::LocalRunner& runner) {
  return runner.pid > 1 && start_ticks(runner.pid) == runner.start_ticks;
}

constexpr const char* kProof = "runner.json";

std::string real_path(const fs::path& path) {
  std::error_code error;
  const fs::path real = fs::weakly_canonical(fs::absolute(path), error);
  return (error ? fs::absolute(path).lexically_normal() : real).string();
}

}  // namespace

void claim_local_run(const local_runner::LocalDirs& dirs, const fs::path& run_dir) {
  const auto me = current_runner();
  const nlohmann::json proof{{"pid", me.pid}, {"start_ticks", me.start_ticks}, {"run_dir", real_path(run_dir)}};
  write_file_atomically(dirs.state / kProof, proof.dump(), FileAccess::kOwnerOnly);
}

local_runner::LocalDirs local_dirs_of(const fs::path& run_dir) {
  const fs::path absolute = fs::absolute(run_dir).lexically_normal();
  return local_runner::local_run_dirs(absolute.parent_path().parent_path().parent_path(),
                                      absolute.filename().string());
}

namespace {

// The proof in `state`, when there is one; nullopt otherwise.
std::optional<nlohmann::json> read_proof(const fs::path& state) {
  // The folder is gkebuild's own (0700, made without following symlinks): what it holds is ours.
  const auto text = read_confined_file(state, kProof, 4096);
  if (!text) return std::nullopt;
  auto proof = nlohmann::json::parse(*text, nullptr, false);
  if (!proof.is_object()) return std::nullopt;
  return proof;
}

runrecord::LocalRunner runner_of(const nlohmann::json& proof) {
  return {proof.value("pid", 0L), proof.value("start_ticks", 0ULL)};
}

}  // namespace

std::optional<runrecord::LocalRunner> live_runner(const local_runner::LocalDirs& dirs, const fs::path& run_dir) {
  const auto proof = read_proof(dirs.state);
  if (!proof || proof->value("run_dir", "") != real_path(run_dir)) return std::nullopt;
  const runrecord::LocalRunner runner = runner_of(*proof);
  if (!alive(runner)) return std::nullopt;
  return runner;
}

bool runner_alive(const fs::path& state_dir) {
  const auto proof = read_proof(state_dir);
  return proof && alive(runner_of(*proof));
}

bool settle_dead_local_run(const fs::path& run_dir, runrecord::RunRecord& record) {
  if (record.target != "local" || record.finished) return false;
  const auto dirs = local_dirs_of(run_dir);
  if (live_runner(dirs, run_dir)) return false;
  try {
    local_runner::stop_all_containers(dirs);
  } catch (const std::exception&) {
    // No runtime on PATH any more: nothing it started can still run from here.
  }
  for (auto& job : record.jobs) {
    if (!unfinished(job.state)) continue;
    job.reason = job.pods.empty() ? "not run: the gkebuild that ran it ended" : "Stopped: the gkebuild that ran it ended";
    job.state = runrecord::JobState::stopped;
  }
  record.runner.reset();
  record.finished = runrecord::Clock::now();
  runrecord::save_run(run_dir, record);
  local_runner::remove_local_run_dirs(dirs);
  return true;
}

void stop_local_run(const fs::path& run_dir, runrecord::RunRecord& record, std::ostream& out) {
  const auto dirs = local_dirs_of(run_dir);
  // Only a process the run's own proof names: a pid in a planted run.json is never signalled.
  if (const auto runner = record.finished ? std::nullopt : live_runner(dirs, run_dir)) {
    const auto pid = static_cast<pid_t>(runner->pid);
    ::kill(pid, SIGTERM);
    // The runner stops its containers: SIGTERM, SIGKILL after their grace period (10 s unless
    // the Job sets terminationGracePeriodSeconds), then removes them and records the Jobs.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(2);
    while (alive(*runner) && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (alive(*runner)) ::kill(pid, SIGKILL);
    for (int i = 0; i < 100 && alive(*runner); ++i)
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
