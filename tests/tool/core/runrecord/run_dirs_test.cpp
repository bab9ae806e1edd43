#include <gtest/gtest.h>

#include <fstream>

#include "tests/common/temp_dir.h"
#include "tool/core/runrecord/run_store.h"

namespace gkebuild::runrecord {
namespace {

using testing::TempDir;
namespace fs = std::filesystem;

const TimePoint kNow = *parse_timestamp("2026-11-22T03:15:00.987Z");

void make_run(const fs::path& project, const std::string& name, TimePoint created = {}) {
  RunRecord record;
  record.run = name;
  record.created = created;
  fs::create_directories(runs_dir(project) / name);
  save_run(runs_dir(project) / name, record);
}

TEST(RunDirs, NewRunFoldersAreNamedByExperimentAndUtcSecond) {
  TempDir project;
  auto first = new_run_dir(project.path(), "gemm", kNow);
  EXPECT_EQ(first, project.path() / ".gkebuild/runs/gemm-20261122-031500");
  EXPECT_TRUE(fs::is_directory(first / "manifests"));
  EXPECT_TRUE(fs::is_directory(first / "logs"));
  EXPECT_EQ(new_run_dir(project.path(), "gemm", kNow).filename(), "gemm-20261122-031500-2");
  EXPECT_EQ(new_run_dir(project.path(), "gemm", kNow).filename(), "gemm-20261122-031500-3");
  EXPECT_EQ(new_run_dir(project.path(), "conv", kNow).filename(), "conv-20261122-031500");
}

TEST(RunDirs, ListHoldsOnlyFoldersWithARunJson) {
  TempDir project;
  EXPECT_TRUE(list_runs(project.path()).empty());
  make_run(project.path(), "gemm-20261122-031500");
  make_run(project.path(), "conv-20261122-031500");
  new_run_dir(project.path(), "half", kNow);  // created, run.json not written yet
  auto runs = list_runs(project.path());
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].filename(), "conv-20261122-031500");
  EXPECT_EQ(runs[1].filename(), "gemm-20261122-031500");
}

// Issue 30: a run folder or the runs folder planted as a symlink out of the checkout.
TEST(RunDirs, SymlinksAreNoRunsAndARunsFolderLeadingOutIsRefused) {
  TempDir project, elsewhere;
  make_run(elsewhere.path(), "outside-20261122-031500");
  fs::create_directories(runs_dir(project.path()));
  fs::create_symlink(runs_dir(elsewhere.path()) / "outside-20261122-031500",
                     runs_dir(project.path()) / "outside-20261122-031500");
  EXPECT_TRUE(list_runs(project.path()).empty());
  fs::remove_all(project / ".gkebuild");
  fs::create_directories(project / ".gkebuild");
  fs::create_symlink(runs_dir(elsewhere.path()), runs_dir(project.path()));
  try {
    list_runs(project.path());
    ADD_FAILURE() << "a runs folder leading out was listed";
  } catch (const SourceError& error) {
    EXPECT_NE(error.message().find("leads outside the project folder"), std::string::npos) << error.what();
  }
}

std::string find_error(const fs::path& project, const std::string& name) {
  try {
    find_run(project, name);
  } catch (const SourceError& error) {
    return error.message();
  }
  return "no error";
}

TEST(RunDirs, FindByNameOrUniquePrefix) {
  TempDir project;
  EXPECT_EQ(find_error(project.path(), "gemm"), "no runs here; `gkebuild submit` records them");
  make_run(project.path(), "gemm-20261122-031500");
  make_run(project.path(), "gemm-20261122-031500-2");
  make_run(project.path(), "conv-20261122-031500");
  EXPECT_EQ(find_run(project.path(), "conv").filename(), "conv-20261122-031500");
  EXPECT_EQ(find_run(project.path(), "gemm-20261122-031500").filename(), "gemm-20261122-031500");
  EXPECT_EQ(find_run(project.path(), "gemm-20261122-031500-").filename(), "gemm-20261122-031500-2");
  EXPECT_EQ(find_error(project.path(), "gemm"),
            "'gemm' names 2 runs; give more of the name:\n  gemm-20261122-031500\n  gemm-20261122-031500-2");
  EXPECT_EQ(find_error(project.path(), "conv-20261122-031501"),
            "no run named 'conv-20261122-031501' (did you mean 'conv-20261122-031500'?)");
}

// The latest run is the last created, not the last by name (names start with the experiment);
// the later name wins a tie; an unreadable run.json is no candidate.
TEST(RunDirs, LatestRunIsTheLastCreated) {
  TempDir project;
  EXPECT_FALSE(latest_run(project.path()).has_value());
  make_run(project.path(), "zeta-20261122-031500", kNow);
  make_run(project.path(), "alpha-20261122-041500", kNow + std::chrono::hours(1));
  EXPECT_EQ(latest_run(project.path())->filename(), "alpha-20261122-041500");
  make_run(project.path(), "beta-20261122-041500", kNow + std::chrono::hours(1));
  EXPECT_EQ(latest_run(project.path())->filename(), "beta-20261122-041500");
  fs::create_directories(runs_dir(project.path()) / "omega-20261122-051500");
  std::ofstream(runs_dir(project.path()) / "omega-20261122-051500" / "run.json") << "{not json";
  EXPECT_EQ(latest_run(project.path())->filename(), "beta-20261122-041500");
}

}  // namespace
}  // namespace gkebuild::runrecord
