// runs, status, logs and delete on the record a submit produced.
#include "submit_fixture.h"

namespace gkebuild::testing {
namespace {

class RunCommandsTest : public SubmitFixture {};

TEST_F(RunCommandsTest, FollowUpCommandsReadAndChangeTheRun) {
  use_example("gpu-info");
  server.control("config", {{"auto", auto_run(1.0)}});
  const auto submitted = gkebuild(std::string("submit probe --detach --image info=") + kPinned);
  ASSERT_EQ(submitted.exit_code, 0) << submitted.err;
  const std::string run = only_run().filename().string();
  EXPECT_NE(submitted.err.find("gkebuild logs " + run + " -f"), std::string::npos) << submitted.err;
  // The plan summary opens a real submit as it opens a dry run, before anything is applied.
  const auto summary = submitted.err.find("plan: 4 Jobs, 4 pods, experiment probe");
  EXPECT_NE(summary, std::string::npos) << submitted.err;
  EXPECT_NE(submitted.err.find("  nvidia-h100-80gb (spot): 1 Job, 1 pod, 1 GPU at once, a3-highgpu-1g nodes at $"),
            std::string::npos)
      << submitted.err;
  EXPECT_LT(summary, submitted.err.find("run " + run + ": 4 Jobs")) << submitted.err;
  EXPECT_EQ(job_names("gpu-info").size(), 4u);

  const auto listed = gkebuild("runs");
  EXPECT_EQ(listed.exit_code, 0);
  EXPECT_TRUE(listed.out.starts_with("RUN ")) << listed.out;
  EXPECT_NE(listed.out.find("\n" + run + "  probe       cluster  "), std::string::npos) << listed.out;

  const auto followed = gkebuild("logs " + run.substr(0, 12) + " -f");  // a unique prefix
  ASSERT_EQ(followed.exit_code, 0) << followed.err;
  const auto record = run_json(only_run());
  for (const auto& job : record["jobs"]) EXPECT_EQ(job["state"], "succeeded");
  EXPECT_EQ(results(only_run()).size(), 4u);

  const auto again = gkebuild("logs " + run);  // the record, without repeats
  EXPECT_EQ(again.exit_code, 0);
  EXPECT_EQ(lines_of(project.path() / "stdout.txt").size(), 12u);

  const auto status = gkebuild("status " + run);
  EXPECT_EQ(status.exit_code, 0);
  EXPECT_NE(status.out.find("4/4 succeeded"), std::string::npos) << status.out;

  const auto deleted = gkebuild("delete " + run);
  EXPECT_EQ(deleted.exit_code, 0) << deleted.err;
  EXPECT_NE(deleted.out.find("deleted 4 Jobs"), std::string::npos);
  EXPECT_TRUE(job_names("gpu-info").empty());
  EXPECT_EQ(server_list("/api/v1/namespaces/gpu-info/pods")["items"].size(), 0u);
}

TEST_F(RunCommandsTest, DeletingARunningRunMarksItsJobs) {
  use_example("gpu-info");
  server.control("config", {{"auto", auto_run(30)}});
  ASSERT_EQ(gkebuild(std::string("submit probe --detach --image info=") + kPinned).exit_code, 0);
  const std::string run = only_run().filename().string();
  const auto status = gkebuild("status " + run);
  EXPECT_NE(status.out.find("0/4 succeeded, 4 pending"), std::string::npos) << status.out;
  EXPECT_NE(status.out.find("waiting for a GPU node"), std::string::npos) << status.out;
  // -v: each API request on stderr, method and path only.
  const auto verbose = gkebuild("status " + run + " -v");
  EXPECT_NE(verbose.err.find("gkebuild: GET /apis/batch/v1/namespaces/gpu-info/jobs"), std::string::npos)
      << verbose.err;
  EXPECT_EQ(verbose.err.find("Authorization"), std::string::npos) << verbose.err;
  ASSERT_EQ(gkebuild("delete " + run).exit_code, 0);
  const auto record = run_json(only_run());
  for (const auto& job : record["jobs"]) {
    EXPECT_EQ(job["state"], "failed");
    EXPECT_EQ(job["reason"], "Deleted");
  }
  EXPECT_FALSE(record["finished"].is_null());
  EXPECT_EQ(gkebuild("status " + run + " --no-refresh").exit_code, 1);
}

TEST_F(RunCommandsTest, UnknownRunIsBadInput) {
  const auto outcome = gkebuild("status nothing-here");
  EXPECT_EQ(outcome.exit_code, 2) << outcome.err;
}

}  // namespace
}  // namespace gkebuild::testing
