// A checkout's project file names the secrets it expects; a value comes from this environment
// only when the command line consents (submit --secret-env NAME, --secret id=ID,env=VAR), as
// BuildKit's --secret: `secretEnv: [GITHUB_TOKEN]` or `secrets: [{id: t, env: GITHUB_TOKEN}]`
// alone hand nothing to the Jobs or the RUN (which has the host network). Refusals come before
// anything is read; runs as any user.
#include <gtest/gtest.h>

#include <cstdlib>

#include "base/source_error.h"
#include "images/dockerfile_build/builder.h"
#include "tests/common/temp_dir.h"
#include "tool/core/project/project.h"
#include "tool/steps/project_images/project_images.h"
#include "tool/submit/run_secret.h"

namespace gkebuild::submit {
namespace {

constexpr const char* kProject =
    "apiVersion: gkebuild/v1\n"                                  // 1
    "project: consent\n"                                         // 2
    "registry: 127.0.0.1:5000/exp\n"                             // 3
    "images:\n"                                                  // 4
    "  trainer:\n"                                               // 5
    "    dockerfile: Dockerfile\n"                               // 6
    "    secrets: [{id: gh, env: CONSENT_TEST_GH}]\n"            // 7
    "experiments:\n"                                             // 8
    "  train:\n"                                                 // 9
    "    image: trainer\n"                                       // 10
    "    accelerators: [nvidia-l4]\n"                            // 11
    "    secretEnv: [CONSENT_TEST_A, CONSENT_TEST_B]\n";         // 12

class SecretConsentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir.write("Dockerfile", "FROM scratch\n");
    project = project::load_project(dir.write("gkebuild.yaml", kProject));
    ::setenv("CONSENT_TEST_A", "value-a-0123", 1);
    ::setenv("CONSENT_TEST_B", "first line of b\nsecond line of b", 1);
    ::setenv("CONSENT_TEST_GH", "ghp_consent", 1);
  }
  void TearDown() override {
    for (const char* name : {"CONSENT_TEST_A", "CONSENT_TEST_B", "CONSENT_TEST_GH"}) ::unsetenv(name);
  }

  std::string refusal(const std::vector<std::string>& flags) {
    const auto consented = add_secret_env_flags(project, "train", flags);
    try {
      RunSecret::read(*project.find_experiment("train"), consented);
    } catch (const SourceError& e) {
      return e.what();
    }
    return "read";
  }

  testing::TempDir dir;
  project::Project project;
};

TEST_F(SecretConsentTest, SecretEnvNeedsTheFlagForEachName) {
  const std::string none = refusal({});
  EXPECT_NE(none.find("gkebuild.yaml:12:17: error: experiment 'train'.secretEnv: CONSENT_TEST_A,CONSENT_TEST_B: "
                      "gkebuild passes a variable of this environment to the Jobs only when the command line names "
                      "it (the project file may only say what it expects); add --secret-env CONSENT_TEST_A,CONSENT_TEST_B"),
            std::string::npos)
      << none;
  const std::string one = refusal({"CONSENT_TEST_A"});
  EXPECT_NE(one.find("gkebuild.yaml:12:33: error: experiment 'train'.secretEnv: CONSENT_TEST_B: "), std::string::npos)
      << one;
  EXPECT_EQ(refusal({"CONSENT_TEST_A,CONSENT_TEST_B"}), "read");
}

TEST_F(SecretConsentTest, ConsentedValuesAreReadAndMaskedLineByLine) {
  const auto consented = add_secret_env_flags(project, "train", {"CONSENT_TEST_B", "CONSENT_TEST_A"});
  const RunSecret secret = RunSecret::read(*project.find_experiment("train"), consented);
  ASSERT_NE(secret.find("CONSENT_TEST_B"), nullptr);
  EXPECT_EQ(secret.mask("a=value-a-0123"), "a=***");
  EXPECT_EQ(secret.mask("second line of b"), "***");  // one line of a multi-line value, alone
}

// What a sink keeps of a run (run.json's reasons, logs/, results.jsonl) is masked alike, and a
// later `logs -f` masks with the values of the run's Secret as the cluster holds them.
TEST_F(SecretConsentTest, TheRecordsReasonsAreMaskedAsItsLogs) {
  struct Kept : RunSink {
    void jobs_changed(const std::vector<JobProgress>& jobs) override { this->jobs = jobs; }
    void log_line(const std::string&, const std::string& line, int) override { lines.push_back(line); }
    void result_line(const std::string&, const std::string& line, int) override { lines.push_back(line); }
    std::vector<JobProgress> jobs;
    std::vector<std::string> lines;
  } kept;
  const auto consented = add_secret_env_flags(project, "train", {"CONSENT_TEST_A,CONSENT_TEST_B"});
  const RunSecret secret = RunSecret::read(*project.find_experiment("train"), consented);
  MaskingSink sink(kept, secret);
  JobProgress job;
  job.reason = "not created: the server said value-a-0123";
  job.pods["p"].waiting_message = "cannot pull first line of b";
  sink.jobs_changed({job});
  sink.log_line("j", "second line of b", 0);
  ASSERT_EQ(kept.jobs.size(), 1u);
  EXPECT_EQ(kept.jobs[0].reason, "not created: the server said ***");
  EXPECT_EQ(kept.jobs[0].pods["p"].waiting_message, "cannot pull ***");
  EXPECT_EQ(kept.lines, std::vector<std::string>({"***"}));
  const nlohmann::json stored = secret.object("ns", "s", "consent", "train", "r1");
  const RunSecret again = RunSecret::from_cluster(nlohmann::json::array({stored, {{"data", {{"X", "not base64!"}}}}}));
  EXPECT_EQ(again.names(), std::vector<std::string>({"CONSENT_TEST_A", "CONSENT_TEST_B"}));
  EXPECT_EQ(again.mask("a=value-a-0123 b=first line of b"), "a=*** b=***");
}

TEST_F(SecretConsentTest, AnImagesEnvSecretNeedsSecretOnTheCommandLine) {
  try {
    project_images::check_image_secrets(project, {"trainer"});
    FAIL() << "the image's secret was read without consent";
  } catch (const SourceError& e) {
    EXPECT_NE(std::string(e.what()).find("gkebuild.yaml:7:15: error: image 'trainer'.secrets: 'gh' comes from the "
                                         "variable CONSENT_TEST_GH, which gkebuild reads only when the command line "
                                         "names it; add --secret id=gh,env=CONSENT_TEST_GH"),
              std::string::npos)
        << e.what();
  }
  build::BuildOptions given;
  given.secrets["gh"] = "from the command line";
  EXPECT_NO_THROW(project_images::check_image_secrets(project, {"trainer"}, given));
}

}  // namespace
}  // namespace gkebuild::submit
