// The real pre-commit (PyPI) in a scratch git repository, with our hook definition
// from .pre-commit-hooks.yaml as a local hook and gkebuild on PATH: a commit with a
// bad manifest is refused with our message; the fixed manifest goes through.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "common/run.h"
#include "common/temp_dir.h"

namespace gkebuild::validate {
namespace {

using testing::run_command;
using testing::shell_quoted;
using testing::TempDir;

// Our published hook, turned into a `repo: local` entry (no clone, no network).
std::string local_config() {
  YAML::Node hooks = YAML::LoadFile(std::string(GKEBUILD_SOURCE_ROOT) + "/.pre-commit-hooks.yaml");
  YAML::Emitter out;
  out << YAML::BeginMap << YAML::Key << "repos" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  out << YAML::Key << "repo" << YAML::Value << "local" << YAML::Key << "hooks" << YAML::Value << hooks;
  out << YAML::EndMap << YAML::EndSeq << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

TEST(PreCommit, RefusesBadManifestAndAcceptsTheFix) {
  if (run_command("pre-commit --version >/dev/null 2>&1").exit_code != 0)
    GTEST_SKIP() << "pre-commit is not installed (scripts/setup.sh installs it)";
  TempDir dir;
  auto repo = dir.path() / "repo";
  dir.write("bin/.keep", "");
  std::filesystem::create_symlink(GKEBUILD_BINARY, dir.path() / "bin" / "gkebuild");
  dir.write("repo/.pre-commit-config.yaml", local_config());
  std::string env = "cd " + shell_quoted(repo.string()) +
                    " && export PATH=" + shell_quoted((dir.path() / "bin").string()) +
                    ":\"$PATH\" PRE_COMMIT_HOME=" + shell_quoted((dir.path() / "pre-commit-home").string()) +
                    " XDG_CACHE_HOME=" + shell_quoted((dir.path() / "cache").string()) +
                    " GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t"
                    " GIT_COMMITTER_EMAIL=t@example.com GITHUB_ACTIONS= && ";
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

}  // namespace
}  // namespace gkebuild::validate
