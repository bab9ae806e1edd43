// Runs that survive scarce GPUs (issue 41), end to end against the Kubernetes test server: a
// MODEL of the Job controller's podFailurePolicy (job_controller.py), of a node lost under a
// multi-node Job (kube_test_server.py's "rank" failures) and of capacity that never comes
// (capacity_model.py), not a real cluster.
#include "submit_fixture.h"

namespace gkebuild::testing {
namespace {

using nlohmann::json;

// A project that is none of the examples: an 8-GPU, two-node training experiment on spot H100s.
constexpr const char* kScarceProject = R"(apiVersion: gkebuild/v1
project: scarce
registry: registry.test/scarce
cluster:
  namespace: scarce
images:
  train:
    from: scratch
    workload: gpu-info
experiments:
  ddp:
    image: train
    accelerators: [nvidia-h100-80gb]
    gpus: 8
    nodes: 2
    spot: true
    timeout: 10m
)";

class ScarceGpuTest : public SubmitFixture {
 protected:
  void write_project(const std::string& extra = "") {
    std::ofstream(project.path() / "gkebuild.yaml") << kScarceProject << extra;
  }

  // Each rank logs where its checkpoints are: a gang restart must resume from the same folder.
  static json ranks_log(json fail, double step = 0.1) {
    json run = auto_run(step, std::move(fail));
    run["lines"] = {"rank $INDEX of $JOB checkpoints in $(GKEBUILD_CHECKPOINT_DIR)", "done"};
    return run;
  }

  Outcome submit() { return gkebuild(std::string("submit ddp --image train=") + kPinned); }

  int requests(const std::string& what) { return server.control("stats")["requests"].value(what, 0); }
};

TEST_F(ScarceGpuTest, PreemptedRankRestartsEveryRankFromTheSameCheckpoints) {
  write_project();
  server.control("config", {{"auto", ranks_log({{"ddp", {{"rank", 1}, {"pod_failure", "Preempted"}}}}, 0.4)}});
  const auto outcome = submit();
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(requests("create jobs"), 2) << "the Job, then the Job again for the gang restart";
  const auto run = only_run();
  const json job = run_json(run)["jobs"][0];
  EXPECT_EQ(job["state"], "succeeded") << job.dump();
  ASSERT_EQ(job["recoveries"].size(), 1u) << job.dump();
  EXPECT_EQ(job["recoveries"][0]["kind"], "restart");
  EXPECT_NE(job["recoveries"][0]["reason"].get<std::string>().find("DisruptionTarget"), std::string::npos);
  EXPECT_EQ(job["pods"].size(), 4u) << "two ranks, twice: " << job.dump();
  // Both attempts of both ranks name one checkpoint folder.
  std::set<std::string> folders;
  int lines = 0;
  for (const auto& line : lines_of(run / "logs" / (job["name"].get<std::string>() + ".log")))
    if (const auto at = line.find("checkpoints in "); at != std::string::npos) {
      folders.insert(line.substr(at + 15));
      ++lines;
    }
  EXPECT_EQ(lines, 4) << "both ranks' logs, in both attempts";
  EXPECT_EQ(folders.size(), 1u);
  EXPECT_NE(outcome.err.find("after 1 gang restart"), std::string::npos) << outcome.err;

  const auto status = gkebuild("status");
  EXPECT_NE(status.out.find("  gang restart 1 at "), std::string::npos) << status.out;
}

TEST_F(ScarceGpuTest, AUserErrorIsNeverRestarted) {
  write_project();
  server.control("config", {{"auto", ranks_log({{"ddp", {{"rank", 1}, {"exit_code", 3}, {"attempts", 9}}}})}});
  const auto outcome = submit();
  EXPECT_EQ(outcome.exit_code, 1) << outcome.err;
  EXPECT_EQ(requests("create jobs"), 1);
  const json job = run_json(only_run())["jobs"][0];
  EXPECT_EQ(job["state"], "failed");
  EXPECT_FALSE(job.contains("recoveries")) << job.dump();
  EXPECT_NE(job["reason"].get<std::string>().find("PodFailurePolicy"), std::string::npos) << job.dump();
}

TEST_F(ScarceGpuTest, ARetriableExitCodeRestartsTheGang) {
  write_project("    retriableExitCodes: [42]\n");
  server.control("config", {{"auto", ranks_log({{"ddp", {{"rank", 0}, {"exit_code", 42}}}})}});
  const auto outcome = submit();
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const json job = run_json(only_run())["jobs"][0];
  ASSERT_EQ(job["recoveries"].size(), 1u) << job.dump();
  EXPECT_NE(job["recoveries"][0]["reason"].get<std::string>().find("exited with 42"), std::string::npos);
}

TEST_F(ScarceGpuTest, RestartsRunOutAndTheRunFailsSayingSo) {
  write_project("    restarts: 1\n");
  server.control("config",
                 {{"auto", ranks_log({{"ddp", {{"rank", 1}, {"pod_failure", "Evicted"}, {"attempts", 5}}}})}});
  const auto outcome = submit();
  EXPECT_EQ(outcome.exit_code, 1) << outcome.err;
  EXPECT_EQ(requests("create jobs"), 2);
  const json job = run_json(only_run())["jobs"][0];
  EXPECT_EQ(job["state"], "failed");
  EXPECT_EQ(job["recoveries"].size(), 1u);
  EXPECT_NE(job["reason"].get<std::string>().find("no gang restart left of restarts: 1"), std::string::npos)
      << job.dump();
}

}  // namespace
}  // namespace gkebuild::testing
