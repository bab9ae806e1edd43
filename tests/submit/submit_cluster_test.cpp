// gkebuild submit against the Kubernetes test server: examples end to end (sweeps and an
// Indexed Job), a dropped watch and log stream, a failing Job, and bad input.
#include "submit_fixture.h"

namespace gkebuild::testing {
namespace {

using nlohmann::json;

class SubmitTest : public SubmitFixture {};

TEST_F(SubmitTest, GemmSweepRunsToItsResults) {
  use_example("gemm-compare");
  const auto outcome = gkebuild(std::string("submit gemm --accelerator nvidia-l4,nvidia-tesla-t4 --sweep n=256 ") +
                                "--max-in-flight 4 --image gemm=" + kPinned);
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  // 2 accelerators x 1 size x 3 precisions.
  EXPECT_EQ(job_names("gemm-compare").size(), 6u);
  const auto run = only_run();
  const json record = run_json(run);
  EXPECT_EQ(record["schema"], "gkebuild.run.v1");
  EXPECT_EQ(record["target"], "cluster");
  EXPECT_EQ(record["images"]["gemm"], kPinned);
  EXPECT_FALSE(record["finished"].is_null());
  ASSERT_EQ(record["jobs"].size(), 6u);
  for (const auto& job : record["jobs"]) {
    EXPECT_EQ(job["state"], "succeeded") << job.dump();
    EXPECT_EQ(job["pods"].size(), 1u);
    EXPECT_EQ(job["pods"][0]["exit_code"], 0);
    EXPECT_EQ(job["parameters"]["n"], 256);
    EXPECT_EQ(lines_of(run / "logs" / (job["name"].get<std::string>() + ".log")).size(), 3u);
  }
  const auto lines = results(run);
  ASSERT_EQ(lines.size(), 6u);
  std::set<std::string> jobs;
  for (const auto& line : lines) {
    jobs.insert(line["job"].get<std::string>());
    EXPECT_EQ(line["schema"], "gkebuild.workload.v1");
    EXPECT_EQ(line["extra"]["args"][1], "256");  // --m 256
  }
  EXPECT_EQ(jobs.size(), 6u);
  EXPECT_TRUE(std::filesystem::exists(run / "manifests" / "namespace-gemm-compare.yaml"));
  EXPECT_NE(outcome.out.find("] done"), std::string::npos);
  EXPECT_NE(outcome.err.find("6 of 6 Jobs succeeded"), std::string::npos) << outcome.err;
  EXPECT_NE(outcome.err.find("queued (at most 4 Jobs in flight)"), std::string::npos) << outcome.err;
}

TEST_F(SubmitTest, SeedsRunAsOneIndexedJobPerPoint) {
  use_example("mnist");
  const auto outcome = gkebuild(std::string("submit train --accelerator nvidia-l4 --image trainer=") + kPinned);
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(job_names("mnist").size(), 2u);  // lr 0.01 and 0.001, three seeds each
  const auto run = only_run();
  const json record = run_json(run);
  for (const auto& job : record["jobs"]) EXPECT_EQ(job["pods"].size(), 3u);
  std::set<int> indexes;
  for (const auto& line : results(run)) indexes.insert(line["extra"]["index"].get<int>());
  EXPECT_EQ(results(run).size(), 6u);
  EXPECT_EQ(indexes, (std::set<int>{0, 1, 2}));
  EXPECT_NE(outcome.out.find("/2] done"), std::string::npos);
}

TEST_F(SubmitTest, DroppedWatchAndLogLoseAndRepeatNothing) {
  use_example("gpu-info");
  server.control("config", {{"auto", auto_run(0.3)}, {"drop_watch_after", 2}, {"drop_log_after", 1}});
  const auto outcome = gkebuild(std::string("submit probe --accelerator nvidia-l4 --image info=") + kPinned);
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const auto run = only_run();
  const std::string job = run_json(run)["jobs"][0]["name"];
  const auto log = lines_of(run / "logs" / (job + ".log"));
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[0], "starting " + job + " with []");
  EXPECT_EQ(log[2], "done");
  EXPECT_EQ(results(run).size(), 1u);
  EXPECT_EQ(run_json(run)["jobs"][0]["state"], "succeeded");
}

TEST_F(SubmitTest, FailingJobEndsWithItsReason) {
  use_example("gpu-info");
  server.control("config", {{"auto", auto_run(0.05, {{"-t4-", {{"exit_code", 2}}}})}});
  const auto outcome =
      gkebuild(std::string("submit probe --accelerator nvidia-l4,nvidia-tesla-t4 --image info=") + kPinned);
  EXPECT_EQ(outcome.exit_code, 1) << outcome.err;
  EXPECT_NE(outcome.err.find("failed: BackoffLimitExceeded: exit code 2"), std::string::npos) << outcome.err;
  const json record = run_json(only_run());
  int failed = 0;
  for (const auto& job : record["jobs"]) {
    if (job["state"] != "failed") continue;
    ++failed;
    EXPECT_NE(job["name"].get<std::string>().find("-t4-"), std::string::npos);
    EXPECT_EQ(job["reason"], "BackoffLimitExceeded: exit code 2");
  }
  EXPECT_EQ(failed, 1);
}

// More Jobs than log readers, --logs all: every log is read whole, by at most 8 streams at once.
TEST_F(SubmitTest, ManyJobsShareABoundedNumberOfLogStreams) {
  use_example("gemm-compare");
  const auto outcome = gkebuild(std::string("submit gemm --accelerator nvidia-l4,nvidia-tesla-t4 ") +
                                "--sweep n=256,512,1024 --max-in-flight 30 --logs all --image gemm=" + kPinned);
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const auto run = only_run();
  const json record = run_json(run);
  ASSERT_EQ(record["jobs"].size(), 18u);
  for (const auto& job : record["jobs"])
    EXPECT_EQ(lines_of(run / "logs" / (job["name"].get<std::string>() + ".log")).size(), 3u) << job["name"];
  EXPECT_EQ(results(run).size(), 18u);
  const json stats = server.control("stats");
  EXPECT_LE(stats["stats"].value("most_log_streams", 0), 8) << stats.dump();
  EXPECT_GE(stats["stats"].value("most_log_streams", 0), 1) << stats.dump();
}

// The number of log files in a run record.
int log_files(const std::filesystem::path& run) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(run / "logs")) count += entry.is_regular_file();
  return count;
}

// --logs failed (the default): results come back in the pods' termination messages (the
// workload writes its result lines to /dev/termination-log; the server models the kubelet),
// so only the first 8 pods to run are streamed and a failed Job's log is read at its end.
TEST_F(SubmitTest, ResultsComeInTerminationMessagesAndOnlyFailedLogsAreRead) {
  use_example("gemm-compare");
  server.control("config", {{"auto", auto_run(0.1, {{"-t4-0-", {{"exit_code", 3}}}})}});
  server.control("reset_stats");
  const auto outcome = gkebuild(std::string("submit gemm --accelerator nvidia-l4,nvidia-tesla-t4 ") +
                                "--sweep n=256,512,1024 --max-in-flight 30 --image gemm=" + kPinned);
  EXPECT_EQ(outcome.exit_code, 1) << outcome.err;
  const auto run = only_run();
  const json record = run_json(run);
  ASSERT_EQ(record["jobs"].size(), 18u);
  // Every Job's result line is recorded once, the failed one's from its log.
  std::set<std::string> with_results;
  for (const auto& line : results(run)) EXPECT_TRUE(with_results.insert(line["job"].get<std::string>()).second);
  EXPECT_EQ(with_results.size(), 18u);
  std::string failed;
  for (const auto& job : record["jobs"])
    if (job["state"] == "failed") failed = job["name"];
  ASSERT_FALSE(failed.empty()) << outcome.err;
  EXPECT_EQ(lines_of(run / "logs" / (failed + ".log")).size(), 3u);
  const json stats = server.control("stats");
  const int log_reads = stats["requests"].value("get pods/log", 0);
  EXPECT_LE(log_reads, 9) << stats.dump();  // 8 streamed while running, and the failed one
  EXPECT_GE(log_reads, 1) << stats.dump();
  EXPECT_EQ(log_files(run), log_reads);
}

// A program that writes no results to its termination log: every pod's log is read after all.
TEST_F(SubmitTest, PodsWithoutResultsInTheirTerminationMessageHaveTheirLogsRead) {
  use_example("gemm-compare");
  json run_config = auto_run(0.1);
  run_config["writes_results"] = false;
  server.control("config", {{"auto", run_config}});
  server.control("reset_stats");
  const auto outcome = gkebuild(std::string("submit gemm --accelerator nvidia-l4,nvidia-tesla-t4 ") +
                                "--sweep n=256,512,1024 --max-in-flight 30 --image gemm=" + kPinned);
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const auto run = only_run();
  EXPECT_EQ(results(run).size(), 18u);
  EXPECT_EQ(log_files(run), 18);
  EXPECT_EQ(server.control("stats")["requests"].value("get pods/log", 0), 18);
}

// How pods fail on a real cluster, each said in the Job's reason: the memory limit (OOMKilled,
// exit 137), an eviction by the kubelet, and an image that cannot be pulled (the pod waits in
// ImagePullBackOff until the Job's deadline).
TEST_F(SubmitTest, PodFailuresAreNamedInTheReason) {
  use_example("gpu-info");
  server.control("config", {{"auto", auto_run(0.1, {{"-t4-", {{"pod_failure", "OOMKilled"}}},
                                                     {"-a100-", {{"pod_failure", "Evicted"}}},
                                                     {"-l4-", {{"pod_failure", "ErrImagePull"}}}})}});
  const auto outcome = gkebuild(std::string("submit probe --accelerator nvidia-l4,nvidia-tesla-t4,nvidia-tesla-a100 "
                                            "--image info=") + kPinned);
  EXPECT_EQ(outcome.exit_code, 1) << outcome.err;
  std::map<std::string, std::string> reasons;
  const json record = run_json(only_run());
  for (const auto& job : record["jobs"]) {
    const std::string name = job["name"];
    for (const char* part : {"-t4-", "-a100-", "-l4-"})
      if (name.find(part) != std::string::npos) reasons[part] = job.value("reason", "");
  }
  EXPECT_EQ(reasons["-t4-"], "BackoffLimitExceeded: exit code 137 (OOMKilled)") << outcome.err;
  EXPECT_EQ(reasons["-a100-"], "BackoffLimitExceeded: pod evicted: The node was low on resource: memory. "
                               "Threshold quantity: 100Mi, available: 52Mi.") << outcome.err;
  EXPECT_EQ(reasons["-l4-"], "DeadlineExceeded") << outcome.err;
  EXPECT_NE(outcome.err.find("cannot pull the image: ImagePullBackOff: Back-off pulling image"), std::string::npos)
      << outcome.err;
}

TEST_F(SubmitTest, PendingJobSaysItWaitsForAGpuNode) {
  use_example("gpu-info");
  server.control("config", {{"auto", auto_run(1.5)}});
  const auto outcome = gkebuild(std::string("submit probe --accelerator nvidia-l4 --image info=") + kPinned);
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_NE(outcome.err.find("pending: waiting for a GPU node (scale-up: pod triggered scale-up"), std::string::npos)
      << outcome.err;
  EXPECT_NE(outcome.err.find("pulling the image"), std::string::npos) << outcome.err;
  // The namespace's events are watched once, not listed again and again while the pod waits.
  const json stats = server.control("stats");
  EXPECT_EQ(stats["requests"].value("list events", 0), 1) << stats.dump();
  EXPECT_GE(stats["requests"].value("watch events", 0), 1) << stats.dump();
}

TEST_F(SubmitTest, BadInputExitsTwoAndAppliesNothing) {
  use_example("gemm-compare");
  const std::string image = std::string(" --image gemm=") + kPinned;
  struct Case {
    std::string arguments;
    std::string kubeconfig_text;  // empty: the working one
    std::string expected;
  };
  const std::vector<Case> cases = {
      {"submit gem" + image, "", "did you mean 'gemm'?"},
      {"submit gemm --accelerator nvidia-tesla-l4" + image, "", "nvidia-l4"},
      {"submit gemm --context nowhere" + image, "", "nowhere"},
      {"submit gemm --image gemm=registry.test/gemm:latest", "", "pinned by digest"},
      {"submit gemm --no-build", "", "never pushed"},
      {"submit gemm" + image, "apiVersion: v1\nclusters: [\n", "kubeconfig"},
      {"submit gemm" + image,
       "apiVersion: v1\nkind: Config\ncurrent-context: c\nclusters:\n- name: c\n  cluster: {server: https://127.0.0.1:1}\n"
       "users:\n- name: u\n  user:\n    exec: {apiVersion: client.authentication.k8s.io/v1, command: "
       "gke-gcloud-auth-plugin-missing, installHint: install it}\ncontexts:\n- name: c\n  context: {cluster: c, user: u}\n",
       "install it"},
  };
  server.control("reset_stats");
  for (const auto& test : cases) {
    std::string kube;
    if (!test.kubeconfig_text.empty()) {
      kube = (project.path() / "bad-kubeconfig").string();
      std::ofstream(kube) << test.kubeconfig_text;
    }
    const auto outcome = gkebuild(test.arguments, kube);
    EXPECT_EQ(outcome.exit_code, 2) << test.arguments << "\n" << outcome.err;
    EXPECT_NE(outcome.err.find(test.expected), std::string::npos) << test.arguments << "\n" << outcome.err;
  }
  const json stats = server.control("stats");
  EXPECT_EQ(stats["stats"].value("POST", 0) + stats["stats"].value("PATCH", 0), 0) << stats.dump();
  EXPECT_FALSE(std::filesystem::exists(project.path() / ".gkebuild" / "runs"));
}

TEST_F(SubmitTest, DryRunPrintsTheManifestsAndStoresNothing) {
  use_example("gemm-compare");
  const auto outcome = gkebuild(std::string("submit gemm --dry-run --sweep n=64 --image gemm=") + kPinned);
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_NE(outcome.out.find("kind: Namespace"), std::string::npos);
  EXPECT_NE(outcome.out.find(kPinned), std::string::npos);
  EXPECT_NE(outcome.err.find("does not exist yet"), std::string::npos) << outcome.err;
  EXPECT_TRUE(job_names("gemm-compare").empty());
  const json stats = server.control("stats");
  EXPECT_EQ(stats["requests"].value("apply namespaces", 0), 1) << stats.dump();
  EXPECT_FALSE(std::filesystem::exists(project.path() / ".gkebuild" / "runs"));
}

TEST_F(SubmitTest, RefusedCreateIsReportedAndRecorded) {
  use_example("gpu-info");
  server.control("config", {{"forbid", {"create/jobs"}}});
  const auto outcome = gkebuild(std::string("submit probe --accelerator nvidia-l4 --image info=") + kPinned);
  EXPECT_EQ(outcome.exit_code, 1) << outcome.err;  // the API server refused: a failed operation, not bad input
  EXPECT_NE(outcome.err.find("cannot create resource \"jobs\""), std::string::npos) << outcome.err;
  const json job = run_json(only_run())["jobs"][0];
  EXPECT_EQ(job["state"], "failed");
  EXPECT_NE(job["reason"].get<std::string>().find("not created: "), std::string::npos) << job.dump();
}

TEST_F(SubmitTest, CtrlCLeavesTheRunGoingAndSaysHowToComeBack) {
  use_example("gpu-info");
  server.control("config", {{"auto", auto_run(30)}});
  const auto outcome = gkebuild(std::string("submit probe --accelerator nvidia-l4,nvidia-tesla-t4 ") +
                                "--max-in-flight 1 --image info=" + kPinned +
                                " & pid=$!; sleep 1.5; kill -INT $pid; wait $pid");
  EXPECT_EQ(outcome.exit_code, 130) << outcome.err;
  const std::string run = only_run().filename().string();
  EXPECT_NE(outcome.err.find("gkebuild status " + run), std::string::npos) << outcome.err;
  EXPECT_NE(outcome.err.find("gkebuild logs " + run + " -f"), std::string::npos) << outcome.err;
  EXPECT_EQ(job_names("gpu-info").size(), 1u);
  const json record = run_json(only_run());
  EXPECT_TRUE(record["finished"].is_null());
  EXPECT_EQ(record["jobs"][0]["state"], "pending");
  EXPECT_EQ(record["jobs"][1]["state"], "failed");
  EXPECT_NE(outcome.err.find("1 Jobs held back by the cap on unfinished Jobs were not created"), std::string::npos)
      << outcome.err;
}

}  // namespace
}  // namespace gkebuild::testing
