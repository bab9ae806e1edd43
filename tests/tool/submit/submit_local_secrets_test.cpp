// secretEnv under `gkebuild submit --local`: with the user's consent (--secret-env) the value
// goes from this process's environment to the container's (the probe prints it; gkebuild shows
// and keeps it as ***, every line of a multi-line value too), and afterwards no file of the
// project folder, $HOME or $XDG_CACHE_HOME holds it: not the run record, the logs, the image
// layout or the runtime bundle, which went with the container; nor what `logs`, `status` and
// `report` print. Without consent nothing is read. secretRefs names cluster Secrets, which a
// local run cannot read: refused before anything is built. The refusals need no root.
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
// A multi-line value (a credential file): each line is masked on its own, "}" is too short to.
constexpr const char* kLines = "{\n  \"hf_line_one\": \"9a8b7c6d\",\n  \"hf_line_two\": \"1e2f3a4b\"\n}";

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

  // gkebuild with its own $HOME and $XDG_CACHE_HOME, which the search reads too.
  std::string homes() const {
    return "HOME=" + shell_quoted(home.path().string()) + " XDG_CACHE_HOME=" + shell_quoted(cache.path().string());
  }
  CommandResult gkebuild(const std::string& environment, const std::string& arguments) {
    return run_command("cd " + shell_quoted(project.path().string()) + " && exec 2>&1 && " + homes() + " " +
                       machine_env() + environment + " " + gkebuild_binary() + " " + arguments);
  }
  // gkebuild's own folders for this test (the bundles, whose config.json holds the env, were there).
  std::string machine_env() const {
    return "GKEBUILD_RUNTIME_DIR=" + shell_quoted((machine / "runtime").string()) +
           " GKEBUILD_CACHE_DIR=" + shell_quoted((machine / "cache").string()) + " ";
  }

  TempDir project;
  TempDir home;
  TempDir cache;
  TempDir machine;
};

TEST_F(SubmitLocalSecretsTest, TheValueReachesTheContainerAndNoFileHoldsIt) {
  if (::geteuid() != 0) GTEST_SKIP() << "runc runs rootful containers: this test needs root";
  write_project("");
  const auto outcome = gkebuild("WANDB_API_KEY=" + std::string(kValue) + " HF_TOKEN=" + shell_quoted(kLines),
                                "submit check --secret-env WANDB_API_KEY --secret-env HF_TOKEN");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.out;
  // The container printed exactly each value, which gkebuild masked, line by line.
  EXPECT_NE(outcome.out.find("WANDB_API_KEY=***"), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find("HF_TOKEN={\n"), std::string::npos) << outcome.out;  // "{" alone is left
  EXPECT_NE(outcome.out.find("***\n"), std::string::npos) << outcome.out;
  const std::vector<std::string> needles = {kValue,   "hf_line_one", "hf_line_two", "9a8b7c6d", "1e2f3a4b",
                                            base64_encode(kValue), base64_encode(kLines)};
  EXPECT_EQ(text_holding("submit", outcome.out, needles), std::vector<std::string>());
  EXPECT_GT(files_under(project / ".gkebuild"), 5u);
  for (const auto& root : {project.path(), home.path(), cache.path(), machine.path()})
    EXPECT_EQ(files_holding(root, needles), std::vector<std::string>()) << root;
  EXPECT_EQ(shown_holding(project.path(), homes() + " " + machine_env(), needles), std::vector<std::string>());
  EXPECT_NE(gkebuild("", "logs").out.find("***"), std::string::npos);  // the masked lines are what logs keeps
  EXPECT_TRUE(std::filesystem::is_empty(machine / "cache" / "containers"));  // the run's bundles went with it
}

// A project file that lists a variable hands it to nobody until the command line says so.
TEST_F(SubmitLocalSecretsTest, WithoutConsentNothingIsReadOrBuilt) {
  write_project("");
  const auto outcome = gkebuild("WANDB_API_KEY=" + std::string(kValue), "submit check");
  EXPECT_EQ(outcome.exit_code, 2) << outcome.out;
  EXPECT_NE(outcome.out.find("gkebuild.yaml:13:17: error: experiment 'check'.secretEnv: WANDB_API_KEY: gkebuild "
                             "passes a variable of this environment to the Jobs only when the command line names it"),
            std::string::npos)
      << outcome.out;
  EXPECT_NE(outcome.out.find("add --secret-env WANDB_API_KEY"), std::string::npos) << outcome.out;
  EXPECT_EQ(outcome.out.find(kValue), std::string::npos) << outcome.out;
  EXPECT_FALSE(std::filesystem::exists(project / ".gkebuild"));
}

TEST_F(SubmitLocalSecretsTest, SecretRefsAreRefusedBeforeAnythingIsBuilt) {
  write_project("    secretRefs: [hf-token]\n");
  const auto outcome = gkebuild("WANDB_API_KEY=x", "submit check --secret-env WANDB_API_KEY");
  EXPECT_EQ(outcome.exit_code, 2) << outcome.out;
  EXPECT_NE(outcome.out.find("gkebuild.yaml:14:18: error: experiment 'check'.secretRefs: 'hf-token' is a Secret of the "
                             "cluster, which a local run cannot read"),
            std::string::npos)
      << outcome.out;
  EXPECT_FALSE(std::filesystem::exists(project / ".gkebuild"));
}

}  // namespace
}  // namespace gkebuild::testing
