// Naming, creating and finding run folders under PROJECT/.gkebuild/runs.
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <system_error>

#include "base/confined_path.h"
#include "base/printable.h"
#include "base/source_error.h"
#include "base/suggest.h"
#include "tool/core/runrecord/run_store.h"

namespace gkebuild::runrecord {
namespace fs = std::filesystem;
namespace {

std::string utc_stamp(TimePoint now) {
  std::time_t seconds = Clock::to_time_t(std::chrono::floor<std::chrono::seconds>(now));
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%04d%02d%02d-%02d%02d%02d", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
  return buffer;
}

std::vector<std::string> names_of(const std::vector<fs::path>& runs) {
  std::vector<std::string> names;
  for (const auto& run : runs) names.push_back(run.filename().string());
  return names;
}

}  // namespace

std::string run_name(std::string_view experiment, TimePoint now) { return std::string(experiment) + "-" + utc_stamp(now); }

fs::path runs_dir(const fs::path& project_dir) { return project_dir / ".gkebuild" / "runs"; }

std::string next_run_name(const fs::path& project_dir, std::string_view experiment, TimePoint now) {
  const std::string base = run_name(experiment, now);
  std::error_code error;
  for (int suffix = 1;; ++suffix) {
    std::string name = suffix == 1 ? base : base + "-" + std::to_string(suffix);
    if (!fs::exists(runs_dir(project_dir) / name, error)) return name;
  }
}

fs::path new_run_dir(const fs::path& project_dir, std::string_view experiment, TimePoint now) {
  // Made without following a symlink: a checkout may have planted .gkebuild or runs.
  const fs::path parent = confined_folder(project_dir, fs::path(".gkebuild") / "runs");
  std::string base = run_name(experiment, now);
  for (int suffix = 1;; ++suffix) {
    fs::path candidate = parent / (suffix == 1 ? base : base + "-" + std::to_string(suffix));
    // create_directory is the claim: of two submits started in the same second, one wins.
    if (!fs::create_directory(candidate)) continue;
    fs::create_directory(candidate / "manifests");
    fs::create_directory(candidate / "logs");
    return candidate;
  }
}

std::vector<fs::path> list_runs(const fs::path& project_dir) {
  std::vector<fs::path> runs;
  // A checkout under review may have planted .gkebuild or runs as a symlink out of it.
  if (!confined_path(project_dir, fs::path(".gkebuild") / "runs"))
    throw SourceError({runs_dir(project_dir).string(), 0, 0},
                      "leads outside the project folder (through a symlink); gkebuild keeps its runs inside it");
  std::error_code error;
  fs::directory_iterator entries(runs_dir(project_dir), error);
  if (error) return runs;  // no runs yet
  for (const auto& entry : entries)
    if (!entry.is_symlink(error) && entry.is_directory(error) && fs::is_regular_file(entry.path() / "run.json"))
      runs.push_back(entry.path());
  std::sort(runs.begin(), runs.end());
  return runs;
}

fs::path find_run(const fs::path& project_dir, std::string_view name_or_prefix) {
  auto runs = list_runs(project_dir);
  std::vector<fs::path> matches;
  for (const auto& run : runs) {
    std::string name = run.filename().string();
    if (name == name_or_prefix) return run;
    if (name.starts_with(name_or_prefix)) matches.push_back(run);
  }
  SourceLocation where{runs_dir(project_dir).string(), 0, 0};
  std::string wanted(name_or_prefix);
  if (matches.size() == 1) return matches.front();
  if (matches.empty()) {
    std::string message = runs.empty() ? "no runs here; `gkebuild submit` records them"
                                        : "no run named " + in_quotes(wanted) + did_you_mean(wanted, names_of(runs));
    throw SourceError(where, message);
  }
  std::string list;
  for (const auto& name : names_of(matches)) list += "\n  " + name;
  throw SourceError(where, in_quotes(wanted) + " names " + std::to_string(matches.size()) +
                               " runs; give more of the name:" + list);
}

std::optional<fs::path> latest_run(const fs::path& project_dir) {
  std::optional<fs::path> latest;
  TimePoint latest_created{};
  for (const auto& run : list_runs(project_dir)) {  // by name: a later name wins a tie
    try {
      const TimePoint created = load_run(run).created;
      if (!latest || created >= latest_created) {
        latest = run;
        latest_created = created;
      }
    } catch (const std::exception&) {
      // An unreadable run is no candidate; `gkebuild runs` lists it as unreadable.
    }
  }
  return latest;
}

}  // namespace gkebuild::runrecord
