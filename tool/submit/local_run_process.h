// The gkebuild process that runs a local run. Whether it still runs is read only from a proof it
// wrote into the run's state folder (gkebuild's own, outside the checkout: local_runner::LocalDirs),
// never from run.json, which a checkout may have planted: a run whose runner is gone (killed with
// SIGKILL, the machine's power cut) is settled by the next command that reads it, its containers
// and their mounts removed and its unfinished Jobs marked stopped, so that it never stays
// "running" for ever; `gkebuild delete` stops a runner still going, and signals no other process.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>

#include "tool/core/runrecord/run_record.h"
#include "tool/steps/local_runner/local_run.h"

namespace gkebuild::submit {

// This process, as a local run's record names its runner.
runrecord::LocalRunner current_runner();

// Writes the proof that this process runs the local run `run_dir` into `dirs.state`; call it
// before the run's record is first saved, so that no reader ever takes the run for dead.
void claim_local_run(const local_runner::LocalDirs& dirs, const std::filesystem::path& run_dir);

// The folders of the local run recorded in `run_dir` (PROJECT/.gkebuild/runs/RUN).
local_runner::LocalDirs local_dirs_of(const std::filesystem::path& run_dir);

// The runner the proof in `dirs.state` names, when that process still runs (the same pid and
// start time, and the proof names `run_dir`); nullopt otherwise.
std::optional<runrecord::LocalRunner> live_runner(const local_runner::LocalDirs& dirs,
                                                  const std::filesystem::path& run_dir);

// Whether the proof in `state_dir` (a local run's state folder) names a process that still runs,
// whichever run it names: what `gkebuild prune` asks before it removes a run's folders.
bool runner_alive(const std::filesystem::path& state_dir);

// For an unfinished local run whose runner is not proven alive: stops and deletes the
// containers in its state folder (none named by the record), removes their bundles and mounts,
// marks its unfinished Jobs stopped and the run finished, saves the record and removes the run's
// state. Returns whether it did; a run still going, a finished run and a cluster run are left
// as they are.
bool settle_dead_local_run(const std::filesystem::path& run_dir, runrecord::RunRecord& record);

// `gkebuild delete` of a local run: SIGTERM to a runner proven alive (which stops its containers
// and records them stopped), SIGKILL when it has not ended after 2 minutes, then whatever it
// left is settled as above. Says what it did on `out`.
void stop_local_run(const std::filesystem::path& run_dir, runrecord::RunRecord& record, std::ostream& out);

}  // namespace gkebuild::submit
