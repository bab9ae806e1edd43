// gkebuild submit with a Kueue queue against the Kubernetes test server, whose Kueue model
// (tests/kube/kueue_model.py) admits suspended Jobs by a GPU quota: the cluster, not the
// client, decides how many Jobs run at once, and a detached run needs no client to go on.
#include "submit_fixture.h"

namespace gkebuild::testing {
namespace {

using nlohmann::json;

class SubmitKueueTest : public SubmitFixture {
 protected:
  // A ClusterQueue with `gpus` nvidia-l4 GPUs and the LocalQueue "gpu" in gpu-info's namespace.
  void queue_with(int gpus) {
    server.control("kueue", {{"namespace", "gpu-info"}, {"queue", "gpu"}, {"gpus", {{"nvidia-l4", gpus}}}});
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

TEST_F(SubmitKueueTest, QueuedSweepRunsWithinTheQuota) {
  use_example("gpu-info");
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
  for (const auto& job : server_list("/apis/batch/v1/namespaces/gpu-info/jobs")["items"])
    EXPECT_EQ(job["metadata"]["labels"].value("kueue.x-k8s.io/queue-name", ""), "gpu");
}

TEST_F(SubmitKueueTest, DetachedRunGoesOnWithoutTheClient) {
  use_example("gpu-info");
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

TEST_F(SubmitKueueTest, MissingQueueIsNamedInTheStatus) {
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

}  // namespace
}  // namespace gkebuild::testing
