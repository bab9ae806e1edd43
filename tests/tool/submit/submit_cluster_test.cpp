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
  ASSERT_EQ(log.size(), 3u) << outcome.out << outcome.err;
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

// The cluster check, the submit and the follow each make a client: the exec plugin
// (gke-gcloud-auth-plugin on GKE; here the test plugin, which counts its runs) runs once for
// them all, as client-go's process-wide cache would have it.
TEST_F(SubmitTest, TheExecPluginRunsOncePerSubmit) {
  use_example("gpu-info");
  server.control("config", {{"tokens", {"exec-token"}}});  // nothing else is accepted
  std::ofstream(server.file("token")) << "exec-token";
  const auto exec_kubeconfig = server.kubeconfig(server.exec_user("client.authentication.k8s.io/v1"));
  const auto outcome = gkebuild(std::string("submit probe --accelerator nvidia-l4,nvidia-tesla-t4 --image info=") +
                                    kPinned, exec_kubeconfig.string());
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(KubeTestServer::read(server.file("runs")), "run\n");
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

// Over HTTP/2, the watches and log streams of a followed sweep are streams of ONE connection,
// however many pods run at once: the follower runs them all on the client's event loop.
TEST_F(SubmitTest, FollowedSweepMultiplexesWatchesAndLogStreamsOnOneConnection) {
  use_example("gemm-compare");
  server.control("config", {{"auto", auto_run(0.5)}});  // pods that run side by side for a while
  const auto outcome = gkebuild(std::string("submit gemm --accelerator nvidia-l4,nvidia-tesla-t4 --sweep n=256 ") +
                                "--image gemm=" + kPinned);
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const auto run = only_run();
  const json record = run_json(run);  // held: a range-for over run_json(run)["jobs"] read freed memory
  for (const auto& job : record["jobs"])
    EXPECT_EQ(lines_of(run / "logs" / (job["name"].get<std::string>() + ".log")).size(), 3u) << job["name"];
  const json stats = server.control("stats");
  int streaming_connections = 0;
  for (const auto& connection : stats["connections"]) {
    int watches = 0;
    for (const auto& [kind, count] : connection["requests"].items())
      if (kind.starts_with("watch ")) watches += count.get<int>();
    const int logs = connection["requests"].value("get pods/log", 0);
    if (watches + logs == 0) continue;
    ++streaming_connections;
    EXPECT_EQ(connection["protocol"], "h2") << stats.dump();
    EXPECT_GE(watches, 3) << "Jobs, Pods and events: " << stats.dump();
    EXPECT_GE(logs, 6) << "a log stream per Job: " << stats.dump();
  }
  EXPECT_EQ(streaming_connections, 1) << stats.dump();
  EXPECT_GE(stats["stats"].value("most_log_streams", 0), 2) << "logs streamed side by side: " << stats.dump();
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
  std::string failed;
  std::size_t failed_pods = 0;  // the Job controller replaced its failed pod up to backoffLimit
  for (const auto& job : record["jobs"])
    if (job["state"] == "failed") {
      failed = job["name"];
      failed_pods = job["pods"].size();
    }
  ASSERT_FALSE(failed.empty()) << outcome.err;
  ASSERT_GE(failed_pods, 1u);
  // Every Job's result line is recorded once per pod that ran: once for each that succeeded
  // (from its termination message or its log), once per attempt of the failed one (from its logs).
  std::map<std::string, std::size_t> results_of;
  for (const auto& line : results(run)) ++results_of[line["job"].get<std::string>()];
  EXPECT_EQ(results_of.size(), 18u);
  for (const auto& [job, count] : results_of) EXPECT_EQ(count, job == failed ? failed_pods : 1u) << job;
  EXPECT_EQ(lines_of(run / "logs" / (failed + ".log")).size(), 3 * failed_pods);
  const json stats = server.control("stats");
  const int log_reads = stats["requests"].value("get pods/log", 0);
  // 8 streamed while running, and the failed Job's pods.
  EXPECT_LE(log_reads, 8 + static_cast<int>(failed_pods)) << stats.dump();
  EXPECT_GE(log_reads, static_cast<int>(failed_pods)) << stats.dump();
  EXPECT_EQ(log_files(run), log_reads - static_cast<int>(failed_pods) + 1);  // a log file per Job
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
// exit 137) on every attempt until backoffLimit, and an image that cannot be pulled (the pod
// waits in ImagePullBackOff until the Job's deadline). A pod that fails once is replaced by the
// Job controller and the Job succeeds, with the failed attempt kept in the record.
TEST_F(SubmitTest, PodFailuresAreNamedInTheReason) {
  use_example("gpu-info");
  server.control("config", {{"auto", auto_run(0.1, {{"-t4-", {{"pod_failure", "OOMKilled"}}},
                                                     {"-a100-", {{"exit_code", 3}, {"attempts", 1}}},
                                                     {"-l4-", {{"pod_failure", "ErrImagePull"}}}})}});
  const auto outcome = gkebuild(std::string("submit probe --accelerator nvidia-l4,nvidia-tesla-t4,nvidia-tesla-a100 "
                                            "--image info=") + kPinned);
  EXPECT_EQ(outcome.exit_code, 1) << outcome.err;
  std::map<std::string, json> jobs;
  const json record = run_json(only_run());
  for (const auto& job : record["jobs"]) {
    const std::string name = job["name"];
    for (const char* part : {"-t4-", "-a100-", "-l4-"})
      if (name.find(part) != std::string::npos) jobs[part] = job;
  }
  // backoffLimit 1 (gkebuild's default): two attempts, both OOMKilled.
  EXPECT_EQ(jobs["-t4-"].value("reason", ""), "BackoffLimitExceeded: exit code 137 (OOMKilled)") << outcome.err;
  EXPECT_EQ(jobs["-t4-"]["pods"].size(), 2u) << jobs["-t4-"].dump();
  EXPECT_EQ(jobs["-l4-"].value("reason", ""), "DeadlineExceeded: the image could not be pulled (ImagePullBackOff)")
      << outcome.err;
  EXPECT_NE(outcome.err.find("cannot pull the image: ImagePullBackOff: Back-off pulling image"), std::string::npos)
      << outcome.err;
  EXPECT_EQ(jobs["-a100-"]["state"], "succeeded") << jobs["-a100-"].dump();
  ASSERT_EQ(jobs["-a100-"]["pods"].size(), 2u) << jobs["-a100-"].dump();
  std::multiset<int> codes;
  for (const auto& pod : jobs["-a100-"]["pods"]) codes.insert(pod.value("exit_code", -1));
  EXPECT_EQ(codes, (std::multiset<int>{0, 3})) << jobs["-a100-"].dump();
  const auto status = gkebuild("status " + only_run().filename().string());
  EXPECT_NE(status.out.find(jobs["-a100-"]["name"].get<std::string>() + "  succeeded, after 1 failed pod (exit code 3)"),
            std::string::npos) << status.out;
}

// Spot nodes go away: graceful node shutdown ends the pod with the DisruptionTarget condition,
// which the rendered Job's podFailurePolicy ignores: the pod is replaced without using up
// backoffLimit. An eviction for node pressure is ignored the same way. A Job past its
// activeDeadlineSeconds fails as DeadlineExceeded with its pod deleted.
TEST_F(SubmitTest, PreemptedPodsAreRetriedAndDeadlinesEndJobs) {
  use_example("gpu-info");
  server.control("config", {{"auto", auto_run(0.1, {{"-t4-", {{"pod_failure", "Preempted"}, {"attempts", 2}}},
                                                     {"-l4-", {{"pod_failure", "Evicted"}, {"attempts", 1}}}})}});
  auto outcome = gkebuild(std::string("submit probe --accelerator nvidia-l4,nvidia-tesla-t4 --image info=") + kPinned);
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  const json record = run_json(only_run());
  for (const auto& job : record["jobs"]) {
    EXPECT_EQ(job["state"], "succeeded") << job.dump();
    const bool t4 = job["name"].get<std::string>().find("-t4-") != std::string::npos;
    EXPECT_EQ(job["pods"].size(), t4 ? 3u : 2u) << job.dump();  // two preemptions, then the pod that ran
  }
  EXPECT_NE(outcome.err.find("failed pods replaced"), std::string::npos) << outcome.err;

  std::filesystem::remove_all(project.path() / ".gkebuild");
  std::string yaml = KubeTestServer::read(project.path() / "gkebuild.yaml");
  yaml.replace(yaml.find("timeout: 10m"), 12, "timeout: 1s");
  std::ofstream(project.path() / "gkebuild.yaml") << yaml;
  server.control("config", {{"auto", auto_run(5)}});
  outcome = gkebuild(std::string("submit probe --accelerator nvidia-l4 --image info=") + kPinned);
  EXPECT_EQ(outcome.exit_code, 1) << outcome.err;
  const json job = run_json(only_run())["jobs"][0];
  EXPECT_EQ(job["reason"], "DeadlineExceeded") << job.dump();
  const std::string pods = "/api/v1/namespaces/gpu-info/pods?labelSelector=batch.kubernetes.io%2Fjob-name%3D";
  EXPECT_TRUE(server_list(pods + job["name"].get<std::string>())["items"].empty()) << "the controller deletes them";
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
