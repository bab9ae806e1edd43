// The real pre-commit (PyPI) in a scratch git repository, with our hook definition
// from .pre-commit-hooks.yaml as a local hook and gkebuild on PATH: a commit with a
// bad manifest is refused with our message; the fixed manifest goes through.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "base/atomic_file.h"
#include "tests/common/run.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::validate {
namespace {

using testing::run_command;
using testing::shell_quoted;
using testing::TempDir;

// Our published hook for a gkebuild on PATH, turned into a `repo: local` entry (no clone, no
// network). The hook that installs itself is precommit_install_test's.
std::string local_config() {
  YAML::Node hooks = YAML::Node(YAML::NodeType::Sequence);
  for (const auto& hook : YAML::LoadFile(std::string(GKEBUILD_SOURCE_ROOT) + "/.pre-commit-hooks.yaml"))
    if (hook["id"].as<std::string>() == "gkebuild-validate-system") hooks.push_back(hook);
  YAML::Emitter out;
  out << YAML::BeginMap << YAML::Key << "repos" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  out << YAML::Key << "repo" << YAML::Value << "local" << YAML::Key << "hooks" << YAML::Value << hooks;
  out << YAML::EndMap << YAML::EndSeq << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

// A scratch folder with gkebuild on PATH (bin/), pre-commit's home and cache inside it, and
// `env`: the shell prefix that enters repo/ with them.
class PreCommit : public ::testing::Test {
 protected:
  void SetUp() override {
    if (run_command("pre-commit --version >/dev/null 2>&1").exit_code != 0)
      GTEST_SKIP() << "pre-commit is not installed (scripts/setup.sh installs it)";
    dir.write("bin/.keep", "");
    std::filesystem::create_symlink(GKEBUILD_BINARY, dir.path() / "bin" / "gkebuild");
    std::filesystem::create_directories(repo);
  }
  TempDir dir;
  std::filesystem::path repo = dir.path() / "repo";
  std::string env = "cd " + shell_quoted(repo.string()) + " && export PATH=" +
                    shell_quoted((dir.path() / "bin").string()) + ":\"$PATH\" PRE_COMMIT_HOME=" +
                    shell_quoted((dir.path() / "pre-commit-home").string()) +
                    " XDG_CACHE_HOME=" + shell_quoted((dir.path() / "cache").string()) +
                    " GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t"
                    " GIT_COMMITTER_EMAIL=t@example.com GITHUB_ACTIONS= && ";
};

TEST_F(PreCommit, RefusesBadManifestAndAcceptsTheFix) {
  dir.write("repo/.pre-commit-config.yaml", local_config());
  auto setup = run_command(env + "git init -q . && git add .pre-commit-config.yaml && "
                                 "git commit -q --no-verify -m config && pre-commit install 2>&1");
  ASSERT_EQ(setup.exit_code, 0) << setup.out;

  std::string job = "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: train\nspec:\n  template:\n    spec:\n"
                    "      restartPolicy: Never\n      containers:\n      - name: main\n        image: busybox\n"
                    "        resource:\n          limits:\n            cpu: 1\n";
  dir.write("repo/k8s/job.yaml", job);
  auto refused = run_command(env + "git add k8s/job.yaml && git commit -m bad 2>&1");
  EXPECT_NE(refused.exit_code, 0) << refused.out;
  EXPECT_NE(refused.out.find("k8s/job.yaml:12:9: error: unknown field \"resource\" in "
                             "spec.template.spec.containers[0] (did you mean 'resources'?) [schema]"),
            std::string::npos)
      << refused.out;
  EXPECT_NE(run_command(env + "git log --oneline | wc -l").out, "2\n");

  job.replace(job.find("resource:"), 9, "resources:");
  dir.write("repo/k8s/job.yaml", job);
  auto accepted = run_command(env + "git add k8s/job.yaml && git commit -m good 2>&1");
  EXPECT_EQ(accepted.exit_code, 0) << accepted.out;
  EXPECT_NE(accepted.out.find("gkebuild validate"), std::string::npos) << accepted.out;
  EXPECT_EQ(run_command(env + "git log --oneline | wc -l").out, "2\n");
}

// The hook as a user adds it, by repository: `pre-commit try-repo` on this source tree (its
// .pre-commit-hooks.yaml, uncommitted edits included) in a scratch repository holding a
// project file beside manifests. The project file passes as one, not as a Kubernetes object
// without a kind; a misspelt key in it fails the hook with its position and a "did you mean".
TEST_F(PreCommit, TryRepoChecksTheProjectFileAsOne) {
  std::string project = read_file(std::string(GKEBUILD_SOURCE_ROOT) + "/examples/gemm-compare/gkebuild.yaml");
  dir.write("repo/gkebuild.yaml", project);
  dir.write("repo/k8s/job.yaml",
            "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: train\nspec:\n  template:\n    spec:\n"
            "      restartPolicy: Never\n      containers:\n      - name: main\n        image: busybox\n");
  const std::string try_repo = "pre-commit try-repo " + shell_quoted(GKEBUILD_SOURCE_ROOT) +
                               " gkebuild-validate-system --all-files 2>&1";
  ASSERT_EQ(run_command(env + "git init -q . && git add .").exit_code, 0);
  const auto passed = run_command(env + try_repo);
  EXPECT_EQ(passed.exit_code, 0) << passed.out;
  EXPECT_NE(passed.out.find("gkebuild validate"), std::string::npos) << passed.out;
  EXPECT_NE(passed.out.find("Passed"), std::string::npos) << passed.out;

  const auto at = project.find("    spot: true");
  ASSERT_NE(at, std::string::npos);
  project.replace(at, 14, "    spto: true");
  dir.write("repo/gkebuild.yaml", project);
  const auto failed = run_command(env + "git add . && " + try_repo);
  EXPECT_NE(failed.exit_code, 0) << failed.out;
  EXPECT_NE(failed.out.find("gkebuild.yaml:"), std::string::npos) << failed.out;
  EXPECT_NE(failed.out.find("did you mean 'spot'?"), std::string::npos) << failed.out;
  EXPECT_NE(failed.out.find("[project-file]"), std::string::npos) << failed.out;
  EXPECT_EQ(failed.out.find("k8s/job.yaml"), std::string::npos) << failed.out;
}

}  // namespace
}  // namespace gkebuild::validate
