// Run folders on disk: .gkebuild/runs/RUN/ beside the project's gkebuild.yaml, with
// run.json, manifests/, logs/ and results.jsonl (format: tool/core/runrecord/README.md).
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/source_error.h"
#include "tool/core/runrecord/run_record.h"

namespace gkebuild::runrecord {

inline constexpr std::string_view kRunSchema = "gkebuild.run.v1";

// run.json and results.jsonl are read whole, and only as regular files inside their run folder
// (a checkout may have planted a symlink there; base/confined_path.h): past this size they are
// refused. A sweep of 10,000 Jobs writes a few MiB.
inline constexpr std::size_t kMaxRecordBytes = std::size_t{256} << 20;

// PROJECT/.gkebuild/runs
std::filesystem::path runs_dir(const std::filesystem::path& project_dir);

// Reads DIR/run.json (a regular file, never through a symlink). A file that is not JSON is a SourceError at file:line:col; a field
// of the wrong type or a missing one is a SourceError naming the file and the field.
RunRecord load_run(const std::filesystem::path& run_dir);

// Writes DIR/run.json under a temporary name, then renames it, so a reader never sees half.
void save_run(const std::filesystem::path& run_dir, const RunRecord& record);

// The run record as run.json holds it, and back (errors name `file` and the field).
nlohmann::json to_json(const RunRecord& record);
RunRecord run_from_json(const nlohmann::json& document, const std::string& file);

// A run's name, EXPERIMENT-YYYYMMDD-HHMMSS (UTC of `now`): its folder's name, and what
// render names Jobs after when no --run-id is given, as submit will.
std::string run_name(std::string_view experiment, TimePoint now);

// The name new_run_dir would give a run started `now`: run_name, or with -2, -3… when a run
// folder of that name exists already (a dry run names its Jobs as the submit after it would).
std::string next_run_name(const std::filesystem::path& project_dir, std::string_view experiment, TimePoint now);

// Creates PROJECT/.gkebuild/runs/EXPERIMENT-YYYYMMDD-HHMMSS (UTC of `now`), or the same with
// -2, -3… when that exists, with manifests/ and logs/ inside; returns the new folder.
std::filesystem::path new_run_dir(const std::filesystem::path& project_dir,
                                  std::string_view experiment, TimePoint now);

// The run folders under PROJECT/.gkebuild/runs that hold a run.json, sorted by name; a
// symlink there is no run folder, and a runs folder that leads out of the project is refused.
std::vector<std::filesystem::path> list_runs(const std::filesystem::path& project_dir);

// The run named exactly `name_or_prefix`, else the one run whose name starts with it.
// None or several: SourceError naming the candidates (or the closest name).
std::filesystem::path find_run(const std::filesystem::path& project_dir,
                               std::string_view name_or_prefix);

// The run created last (run.json's `created`; the later name on a tie); nullopt when the
// project has no readable run. `gkebuild status`, `logs` and `report` take it without RUN.
std::optional<std::filesystem::path> latest_run(const std::filesystem::path& project_dir);

}  // namespace gkebuild::runrecord
