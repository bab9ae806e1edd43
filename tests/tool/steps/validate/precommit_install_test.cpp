// The hook that installs itself: `pre-commit try-repo` on this source tree with the
// gkebuild-validate hook (language: python) in a scratch repository, with no gkebuild on PATH.
// pre-commit makes a virtualenv and pip-installs the repository, whose build backend
// (pyproject.toml, scripts/gkebuild_wheel.py) packs the built tree GKEBUILD_WHEEL_BUILD names into
// the wheel (a user's pre-commit builds it from source instead, which takes minutes); the hook then
// runs the wheel's gkebuild: a bad manifest fails with its position, the fixed one passes.
#include <gtest/gtest.h>

#include "tests/common/run.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::validate {
namespace {

using testing::run_command;
using testing::shell_quoted;
using testing::TempDir;

TEST(PreCommitInstall, TheHookInstallsGkebuildFromTheRepository) {
  if (run_command("pre-commit --version >/dev/null 2>&1").exit_code != 0 && std::getenv("CI") == nullptr)
    GTEST_SKIP() << "pre-commit is not installed (scripts/setup.sh installs it)";
  TempDir dir;
  const auto repo = dir.path() / "repo";
  std::filesystem::create_directories(repo);
  // Only the system's folders on PATH, and pre-commit's own: no gkebuild anywhere on it.
  const std::string pre_commit = run_command("command -v pre-commit").out;
  const std::string pre_commit_dir = std::filesystem::path(pre_commit.substr(0, pre_commit.find('\n'))).parent_path();
  const std::string env = "cd " + shell_quoted(repo.string()) + " && export PATH=" + shell_quoted(pre_commit_dir) +
                          ":/usr/bin:/bin PRE_COMMIT_HOME=" + shell_quoted((dir.path() / "home").string()) +
                          " XDG_CACHE_HOME=" + shell_quoted((dir.path() / "cache").string()) + " GKEBUILD_WHEEL_BUILD=" +
                          shell_quoted(GKEBUILD_BUILD_ROOT) + " GITHUB_ACTIONS= && ";
  ASSERT_NE(run_command(env + "command -v gkebuild").exit_code, 0) << "gkebuild is on the test's PATH";
  dir.write("repo/k8s/job.yaml",
            "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: train\nspec:\n  template:\n    spec:\n"
            "      restartPolicy: Never\n      containers:\n      - name: main\n        image: busybox\n"
            "        resource: {}\n");
  ASSERT_EQ(run_command(env + "git init -q . && git add .").exit_code, 0);
  const std::string try_repo =
      "pre-commit try-repo " + shell_quoted(GKEBUILD_SOURCE_ROOT) + " gkebuild-validate --all-files 2>&1";
  const auto failed = run_command(env + try_repo);
  EXPECT_NE(failed.exit_code, 0) << failed.out;
  EXPECT_NE(failed.out.find("k8s/job.yaml:12:9: error: unknown field \"resource\""), std::string::npos) << failed.out;

  dir.write("repo/k8s/job.yaml",
            "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: train\nspec:\n  template:\n    spec:\n"
            "      restartPolicy: Never\n      containers:\n      - name: main\n        image: busybox\n");
  const auto passed = run_command(env + "git add . && " + try_repo);
  EXPECT_EQ(passed.exit_code, 0) << passed.out;
  EXPECT_NE(passed.out.find("Passed"), std::string::npos) << passed.out;
}

}  // namespace
}  // namespace gkebuild::validate
