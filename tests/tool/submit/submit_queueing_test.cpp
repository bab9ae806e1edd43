// Server-side concurrency against the Kubernetes test server: Jobs queued in Kueue, which the
// server's Kueue model (tests/tool/core/kube/kueue_model.py) admits by a GPU quota - the cluster, not the
// client, decides how many run at once, and a detached run needs no client to go on - and a
// sweep run as one Indexed Job whose pods read their points from a ConfigMap.
#include "submit_fixture.h"

namespace gkebuild::testing {
namespace {

using nlohmann::json;

class ServerSideQueueing : public SubmitFixture {
 protected:
  // A ClusterQueue with `gpus` nvidia-l4 GPUs and the LocalQueue "gpu" in gpu-info's namespace.
  void queue_with(int gpus) {
    server.control("kueue", {{"namespace", "gpu-info"}, {"queue", "gpu"}, {"gpus", {{"nvidia-l4", gpus}}}});
  }
  // The gpu-info example with its probe reading the sweep variable x: each point is a Job of its own.
  void use_probe_sweeping_x() {
    use_example("gpu-info");
    std::ofstream(project.path() / "gkebuild.yaml", std::ios::app) << "    env: {POINT: \"{{ x }}\"}\n";
  }
  // `gkebuild status RUN` until its output has `words` (the detached run goes on in the server).
  std::string status_until(const std::string& run, const std::string& words) {
    std::string last;
    for (int attempt = 0; attempt < 100; ++attempt) {
      last = gkebuild("status " + run).out;
      if (last.find(words) != std::string::npos) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    return last;
  }
};

TEST_F(ServerSideQueueing, QueuedSweepRunsWithinTheQuota) {
  use_probe_sweeping_x();
  queue_with(2);
  server.control("config", {{"auto", auto_run(0.3)}});
  const auto outcome = gkebuild(std::string("submit probe --accelerator nvidia-l4 --sweep x=1,2,3,4 --queue gpu ") +
                                "--max-in-flight 1 --image info=" + kPinned);
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const json kueue = server.control("kueue");
  EXPECT_EQ(kueue["admissions"], 4) << kueue.dump();
  EXPECT_EQ(kueue["max_admitted"], 2) << kueue.dump();  // the quota, not --max-in-flight, limits the run
  EXPECT_EQ(kueue["admitted"], 0) << kueue.dump();      // every quota given back
  EXPECT_NE(outcome.err.find("pending: queued (Kueue: waiting for quota)"), std::string::npos) << outcome.err;
  EXPECT_NE(outcome.err.find("4 of 4 Jobs succeeded"), std::string::npos) << outcome.err;
  const json record = run_json(only_run());
  for (const auto& job : record["jobs"]) EXPECT_EQ(job["state"], "succeeded") << job.dump();
  EXPECT_EQ(results(only_run()).size(), 4u);
  // Each Job went to the cluster once, suspended, with its queue.
  EXPECT_EQ(server.control("stats")["requests"].value("create jobs", 0), 4);
  const json jobs = server_list("/apis/batch/v1/namespaces/gpu-info/jobs");  // kept: a loop over a temporary's
  ASSERT_EQ(jobs["items"].size(), 4u);                                      // member would read freed memory
  for (const auto& job : jobs["items"])
    EXPECT_EQ(job["metadata"]["labels"].value("kueue.x-k8s.io/queue-name", ""), "gpu");
}

// The queue objects `gkebuild render kueue` writes, applied by kubectl (a real client), are
// what the server's Kueue admits by: a quota of one nvidia-l4 GPU runs three Jobs one by one.
// --validate=false: the server publishes no OpenAPI document for Kueue's group, which kubectl's
// client-side validation asks for (the objects themselves are checked against Kueue's CRD
// schemas by the API contract and by KueueRender).
TEST_F(ServerSideQueueing, RenderedQueueObjectsAppliedWithKubectlAdmitByTheirQuota) {
  use_probe_sweeping_x();
  std::ofstream(project.path() / "gkebuild.yaml", std::ios::app) << "kueue:\n  queue: gpu\n  gpus: {nvidia-l4: 1}\n";
  const auto rendered = gkebuild("render namespace kueue");
  ASSERT_EQ(rendered.exit_code, 0) << rendered.err;
  std::ofstream(project.path() / "kueue.yaml") << rendered.out;
  const auto applied = run_command("timeout 30 kubectl --kubeconfig " + shell_quoted(kubeconfig.string()) +
                                   " --cache-dir " + shell_quoted((project.path() / "kube-cache").string()) +
                                   " apply --server-side --validate=false -f " +
                                   shell_quoted((project.path() / "kueue.yaml").string()));
  ASSERT_EQ(applied.exit_code, 0) << applied.out << applied.err;
  EXPECT_NE(applied.out.find("clusterqueue.kueue.x-k8s.io/gpu-info serverside-applied"), std::string::npos)
      << applied.out;
  server.control("config", {{"auto", auto_run(0.1)}});
  const auto outcome = gkebuild(std::string("submit probe --accelerator nvidia-l4 --sweep x=1,2,3 --queue gpu --image info=") +
                                kPinned);
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const json kueue = server.control("kueue");
  EXPECT_EQ(kueue["admissions"], 3) << kueue.dump();
  EXPECT_EQ(kueue["max_admitted"], 1) << kueue.dump();
}

TEST_F(ServerSideQueueing, DetachedRunGoesOnWithoutTheClient) {
  use_probe_sweeping_x();
  queue_with(1);
  server.control("config", {{"auto", auto_run(0.4)}});
  const auto outcome = gkebuild(std::string("submit probe --accelerator nvidia-l4 --sweep x=1,2 --queue gpu --detach ") +
                                "--image info=" + kPinned);
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(job_names("gpu-info").size(), 2u);
  const std::string run = only_run().filename().string();
  const std::string queued = status_until(run, "queued (Kueue: waiting for quota)");
  EXPECT_NE(queued.find("pending: queued (Kueue: waiting for quota)"), std::string::npos) << queued;
  const std::string done = status_until(run, "2/2 succeeded");
  EXPECT_NE(done.find("2/2 succeeded"), std::string::npos) << done;
  EXPECT_EQ(server.control("kueue")["max_admitted"], 1);
}

TEST_F(ServerSideQueueing, MissingQueueIsNamedInTheStatus) {
  use_example("gpu-info");
  queue_with(1);
  const auto outcome = gkebuild(std::string("submit probe --accelerator nvidia-l4 --queue nope --detach ") +
                                "--image info=" + kPinned);
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const std::string run = only_run().filename().string();
  const std::string status = status_until(run, "inadmissible");
  EXPECT_NE(status.find("pending: queued (Kueue: inadmissible: LocalQueue nope doesn't exist)"), std::string::npos)
      << status;
  EXPECT_EQ(server.control("kueue")["admissions"], 0);
}

// While following, the Workloads are watched too: a Job that no queue will admit says why.
TEST_F(ServerSideQueueing, FollowSaysWhyAJobIsNotAdmitted) {
  use_example("gpu-info");
  queue_with(1);
  const auto outcome = gkebuild(std::string("submit probe --accelerator nvidia-l4 --queue nope --image info=") +
                                kPinned + " & pid=$!; sleep 2; kill -INT $pid; wait $pid");
  EXPECT_EQ(outcome.exit_code, 130) << outcome.err;
  EXPECT_NE(outcome.err.find("pending: queued (Kueue: inadmissible: LocalQueue nope doesn't exist)"), std::string::npos)
      << outcome.err;
  EXPECT_EQ(server.control("stats")["requests"].value("watch workloads", 0), 1);
}

TEST_F(ServerSideQueueing, SweepRunsAsOneIndexedJob) {
  std::ofstream(project.path() / "gkebuild.yaml") << R"(apiVersion: gkebuild/v1
project: sweep
registry: registry.test/p
images:
  gemm: {workload: gemm-bench}
experiments:
  gemm:
    image: gemm
    accelerators: [nvidia-l4]
    args: ["--m", "{{ n }}", "--precision", "{{ precision }}"]
    sweep:
      n: [256, 512]
      precision: [fp32, fp16]
    parallelism: 2
)";
  json auto_lines = auto_run(0.1);
  auto_lines["lines"] = {"point $(GKEBUILD_INDEX): $FILE{/etc/gkebuild/points/$(GKEBUILD_INDEX)}"};
  server.control("config", {{"auto", auto_lines}});
  const auto outcome = gkebuild(std::string("submit gemm --image gemm=") + kPinned);
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const json stats = server.control("stats");
  EXPECT_EQ(stats["requests"].value("create jobs", 0), 1) << stats.dump();  // not one per point
  EXPECT_EQ(stats["requests"].value("apply configmaps", 0), 1) << stats.dump();
  const json job = server_list("/apis/batch/v1/namespaces/sweep/jobs")["items"][0];
  EXPECT_EQ(job["spec"]["completionMode"], "Indexed");
  EXPECT_EQ(job["spec"]["completions"], 4);
  EXPECT_EQ(job["spec"]["parallelism"], 2);
  // The Job controller, not gkebuild, kept the cap: never more than 2 of the 4 pods at once.
  EXPECT_EQ(stats["max_active_pods"].value(job["metadata"]["name"].get<std::string>(), 0), 2) << stats.dump();
  const auto run = only_run();
  const json record = run_json(run);
  ASSERT_EQ(record["jobs"].size(), 1u);
  EXPECT_EQ(record["jobs"][0]["state"], "succeeded");
  EXPECT_EQ(record["jobs"][0]["pods"].size(), 4u);
  const auto log = lines_of(run / "logs" / (record["jobs"][0]["name"].get<std::string>() + ".log"));
  const std::set<std::string> lines(log.begin(), log.end());
  // Each index ran its own point, in itertools.product order.
  EXPECT_EQ(lines, (std::set<std::string>{"point 0: --m 256 --precision fp32", "point 1: --m 256 --precision fp16",
                                          "point 2: --m 512 --precision fp32", "point 3: --m 512 --precision fp16"}));
  // delete takes the ConfigMap of points with the Job.
  ASSERT_EQ(gkebuild("delete " + run.filename().string()).exit_code, 0);
  EXPECT_TRUE(server_list("/api/v1/namespaces/sweep/configmaps")["items"].empty());
  EXPECT_TRUE(job_names("sweep").empty());
}

TEST_F(ServerSideQueueing, ParallelismFlagTurnsASweepIntoAnIndexedJob) {
  use_example("gemm-compare");
  const auto outcome = gkebuild(std::string("submit gemm --accelerator nvidia-l4 --sweep n=64 --parallelism 2 "
                                            "--dry-run --image gemm=") + kPinned);
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_NE(outcome.out.find("kind: ConfigMap"), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find("  completions: 3\n  parallelism: 2\n"), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find("/etc/gkebuild/points/$(GKEBUILD_INDEX)"), std::string::npos) << outcome.out;
  // The dry run holds back the ConfigMap with the Job: its namespace does not exist yet.
  EXPECT_NE(outcome.err.find("the 1 Jobs and 1 other namespaced objects were checked here only"), std::string::npos)
      << outcome.err;
  use_example("mnist");  // seeds: already an Indexed Job per point
  const auto refused = gkebuild(std::string("submit train --parallelism 2 --image trainer=") + kPinned);
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_NE(refused.err.find("has seeds:"), std::string::npos) << refused.err;
}

// A multi-node sweep (nodes: 2) in a queue of 2 GPUs: Kueue admits each Job whole (both pods
// at once, one Job at a time), each Job comes with its headless Service, its pods are named
// <job>-<rank> in that Service's subdomain, and every result line carries its node rank.
TEST_F(ServerSideQueueing, MultiNodeSweepIsAdmittedWholeJobByJob) {
  use_example("gpu-info");
  std::ofstream(project.path() / "gkebuild.yaml", std::ios::app)
      << "  pair:\n    image: info\n    accelerators: [nvidia-l4]\n    nodes: 2\n    queue: gpu\n"
         "    env: {POINT: \"{{ x }}\"}\n";
  queue_with(2);
  server.control("config", {{"auto", auto_run(0.2)}});
  const auto outcome = gkebuild(std::string("submit pair --sweep x=1,2,3 --image info=") + kPinned);
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const json kueue = server.control("kueue");
  EXPECT_EQ(kueue["admissions"], 3) << kueue.dump();
  EXPECT_EQ(kueue["max_admitted"], 1) << kueue.dump();  // 2 GPUs: one 2-node Job at a time, never half of one
  const json services = server_list("/api/v1/namespaces/gpu-info/services");
  ASSERT_EQ(services["items"].size(), 3u) << services.dump();
  for (const auto& service : services["items"]) EXPECT_EQ(service["spec"]["clusterIP"], "None");
  const json pods = server_list("/api/v1/namespaces/gpu-info/pods");
  ASSERT_EQ(pods["items"].size(), 6u);
  for (const auto& pod : pods["items"]) {
    const std::string job = pod["metadata"]["labels"]["batch.kubernetes.io/job-name"];
    EXPECT_EQ(pod["spec"]["subdomain"], job);
    EXPECT_EQ(pod["spec"]["hostname"], job + "-" + pod["metadata"]["annotations"]["batch.kubernetes.io/job-completion-index"].get<std::string>());
  }
  const auto lines = results(only_run());
  ASSERT_EQ(lines.size(), 6u);
  std::map<int, int> per_rank;
  for (const auto& line : lines) ++per_rank[line.value("node_rank", -1)];
  EXPECT_EQ(per_rank, (std::map<int, int>{{0, 3}, {1, 3}}));
  EXPECT_EQ(run_json(only_run())["jobs"][0]["nodes"], 2);
  // delete takes the headless Services with the Jobs.
  ASSERT_EQ(gkebuild("delete " + only_run().filename().string()).exit_code, 0);
  EXPECT_TRUE(server_list("/api/v1/namespaces/gpu-info/services")["items"].empty());
}

// Queued provisioning: the queue's ClusterQueue has the ProvisioningRequest admission check.
// Kueue reserves the quota and asks for both nodes of the Job at once (a ProvisioningRequest of
// class queued-provisioning.gke.io, count 2); until GKE provisions them the status says so; then
// the Job is admitted whole and runs.
TEST_F(ServerSideQueueing, QueuedProvisioningWaitsForItsNodesThenRunsWhole) {
  use_example("gpu-info");
  std::ofstream(project.path() / "gkebuild.yaml", std::ios::app)
      << "  pair:\n    image: info\n    accelerators: [nvidia-l4]\n    nodes: 2\n    provisioning: queued\n"
         "    queue: gpu-queued\n";
  server.control("kueue", {{"namespace", "gpu-info"}, {"queue", "gpu-queued"}, {"gpus", {{"nvidia-l4", 4}}},
                           {"admission_check", "dws"}});
  server.control("config", {{"auto", auto_run(0.1)}});
  const auto outcome = gkebuild(std::string("submit pair --detach --image info=") + kPinned);
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const std::string run = only_run().filename().string();
  const std::string waiting = status_until(run, "nodes not provisioned yet");
  EXPECT_NE(waiting.find("queued (Kueue: quota reserved; nodes not provisioned yet: admission check dws Pending: "
                         "Waiting for resources."),
            std::string::npos) << waiting;
  const json requests = server_list("/apis/autoscaling.x-k8s.io/v1/namespaces/gpu-info/provisioningrequests");
  ASSERT_EQ(requests["items"].size(), 1u) << requests.dump();
  EXPECT_EQ(requests["items"][0]["spec"]["provisioningClassName"], "queued-provisioning.gke.io");
  EXPECT_EQ(requests["items"][0]["spec"]["podSets"][0]["count"], 2);
  EXPECT_EQ(server.control("kueue")["admissions"], 0);  // quota reserved, not admitted
  server.control("kueue", {{"provision", true}});
  const std::string done = status_until(run, "1/1 succeeded");
  EXPECT_NE(done.find("1/1 succeeded"), std::string::npos) << done;
  EXPECT_EQ(server.control("kueue")["admissions"], 1);
}

}  // namespace
}  // namespace gkebuild::testing
