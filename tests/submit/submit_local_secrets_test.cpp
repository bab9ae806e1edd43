// secretEnv under `gkebuild submit --local`: the value goes from this process's environment to
// the container's (the probe prints it; gkebuild shows and keeps it as ***), and afterwards no
// file of the project folder holds it: not the run record, the logs, the image layout or the
// runtime bundle, which went with the container. secretRefs names cluster Secrets, which a local
// run cannot read: refused before anything is built.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "base/base64.h"
#include "tests/common/leak_search.h"
#include "tests/common/run.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::testing {
namespace {

constexpr const char* kValue = "local-wandb-5e6f7a8b9c0d1e2f";

class SubmitLocalSecretsTest : public ::testing::Test {
 protected:
  // The refusal needs no root (issue 40): only the test that runs a container skips without it.
  void SetUp() override {
    std::filesystem::create_directories(project / "build");
    std::filesystem::copy_file(PROBE_PROGRAM, project / "build" / "probe");
  }

  void write_project(const std::string& more) {
    std::ofstream(project / "gkebuild.yaml")
        << "apiVersion: gkebuild/v1\nproject: local-secrets\nregistry: registry.test/exp\ncluster: local\n"
        << "images:\n  probe:\n    workload: probe\n"
        << "experiments:\n  check:\n    image: probe\n    args: [env, WANDB_API_KEY, env, HF_TOKEN]\n"
        << "    accelerators: [nvidia-l4]\n    secretEnv: [WANDB_API_KEY]\n" << more;
  }

  CommandResult gkebuild(const std::string& environment, const std::string& arguments) {
    return run_command("cd " + shell_quoted(project.path().string()) + " && exec 2>&1 && " + environment +
                       " GKEBUILD_RUNTIME_DIR=" + shell_quoted((machine / "runtime").string()) +
                       " GKEBUILD_CACHE_DIR=" + shell_quoted((machine / "cache").string()) + " " + gkebuild_binary() +
                       " " + arguments);
  }

  TempDir project;
  TempDir machine;  // gkebuild's own folders for this test: the bundles (config.json holds the env) were there
};

TEST_F(SubmitLocalSecretsTest, TheValueReachesTheContainerAndNoFileHoldsIt) {
  if (::geteuid() != 0) GTEST_SKIP() << "runc runs rootful containers: this test needs root";
  write_project("");
  const auto outcome = gkebuild("WANDB_API_KEY=" + std::string(kValue) + " HF_TOKEN=hf-2", "submit check --secret-env HF_TOKEN");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.out;
  // The container printed exactly each value, which gkebuild masked.
  EXPECT_NE(outcome.out.find("WANDB_API_KEY=***"), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find("HF_TOKEN=***"), std::string::npos) << outcome.out;
  EXPECT_EQ(outcome.out.find(kValue), std::string::npos) << outcome.out;
  EXPECT_GT(files_under(project / ".gkebuild"), 5u);
  EXPECT_EQ(files_holding(project.path(), {kValue, "hf-2", base64_encode(kValue)}), std::vector<std::string>());
  EXPECT_EQ(files_holding(machine.path(), {kValue, "hf-2", base64_encode(kValue)}), std::vector<std::string>());
  EXPECT_TRUE(std::filesystem::is_empty(machine / "cache" / "containers"));  // the run's bundles went with it
}

TEST_F(SubmitLocalSecretsTest, SecretRefsAreRefusedBeforeAnythingIsBuilt) {
  write_project("    secretRefs: [hf-token]\n");
  const auto outcome = gkebuild("WANDB_API_KEY=x", "submit check");
  EXPECT_EQ(outcome.exit_code, 2) << outcome.out;
  EXPECT_NE(outcome.out.find("gkebuild.yaml:14:18: error: experiment 'check'.secretRefs: 'hf-token' is a Secret of the "
                             "cluster, which a local run cannot read"),
            std::string::npos)
      << outcome.out;
  EXPECT_FALSE(std::filesystem::exists(project / ".gkebuild"));
}

}  // namespace
}  // namespace gkebuild::testing
