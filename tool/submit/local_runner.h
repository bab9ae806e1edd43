// The gkebuild process that runs a local run, as its record names it: a run whose runner is
// gone (killed with SIGKILL, the machine's power cut) is settled by the next command that
// reads it, its containers and their mounts removed and its unfinished Jobs marked stopped,
// so that it never stays "running" for ever; `gkebuild delete` stops a runner still going.
#pragma once

#include <filesystem>
#include <ostream>

#include "tool/core/runrecord/run_record.h"

namespace gkebuild::submit {

// This process, as a local run's record names its runner.
runrecord::LocalRunner current_runner();

// Whether the process the record names still runs (the same pid and start time).
bool runner_alive(const runrecord::LocalRunner& runner);

// For a local run whose record names a runner that is gone: stops and deletes the containers
// of its unfinished Jobs (under the project's .gkebuild/local), removes their bundles and
// mounts, marks those Jobs stopped and the run finished, and saves the record. Returns
// whether it did; a run still going, a finished run and a cluster run are left as they are.
bool settle_dead_local_run(const std::filesystem::path& run_dir, runrecord::RunRecord& record);

// `gkebuild delete` of a local run: SIGTERM to a runner still going (which stops its
// containers and records them stopped), SIGKILL after `grace` when it has not ended, then
// whatever it left is settled as above. Says what it did on `out`.
void stop_local_run(const std::filesystem::path& run_dir, runrecord::RunRecord& record, std::ostream& out);

}  // namespace gkebuild::submit
