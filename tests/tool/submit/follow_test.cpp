// follow_run against the in-memory cluster (fake_cluster.h): Jobs that succeed, fail, wait for a
// node, lose pods to preemption, eviction or their deadline; Indexed multi-node Jobs; the cap on
// Jobs in flight, --detach and Ctrl-C; Kueue's words; which logs are read, and a re-attach that
// repeats no line. The same paths over HTTP are submit_cluster_test's, against the test server.
#include <gtest/gtest.h>

#include <condition_variable>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "fake_cluster.h"
#include "tool/core/kube/api_error.h"
#include "tool/submit/follower.h"
#include "tool/steps/plan/run_plan.h"

namespace gkebuild::testing {
namespace {

using nlohmann::json;
using submit::FollowEnd;
using submit::JobProgress;
using submit::JobState;
using namespace std::chrono_literals;

constexpr const char* kNamespace = "team";
constexpr const char* kRun = "train-20260101-000000";

const char* const kResultLine =
    R"({"schema":"gkebuild.workload.v1","workload":"test","metric":"throughput","value":1.5,"unit":"TFLOP/s"})";

json job_object(const std::string& name, bool suspended = false) {
  const json labels = {{"gkebuild.io/run", kRun}};
  json job = {{"apiVersion", "batch/v1"},
              {"kind", "Job"},
              {"metadata", {{"name", name}, {"labels", labels}}},
              {"spec", {{"template", {{"metadata", {{"labels", labels}}}}}}}};
  if (suspended) job["spec"]["suspend"] = true;
  return job;
}

Change lasting(json object, std::chrono::milliseconds lasts) { return {std::move(object), false, lasts}; }

// Long enough for the follower to publish a state (at most every 100 ms, its loop waking at
// least every 200 ms), with room for a loaded machine.
constexpr std::chrono::milliseconds kSeen{600};

// What the follower tells the record: every Job's words at each publish, and the lines.
class RecordingSink : public submit::RunSink {
 public:
  void jobs_changed(const std::vector<JobProgress>& jobs) override {
    for (const auto& job : jobs) said.push_back(job.name + ": " + job.describe());
    if (on_change) on_change(jobs);
  }
  void log_line(const std::string& job, const std::string& line, int index) override {
    logs.push_back(job + "/" + std::to_string(index) + ": " + line);
  }
  void result_line(const std::string& job, const std::string& line, int index) override {
    results.push_back(job + "/" + std::to_string(index) + ": " + line);
  }

  std::vector<std::string> said, logs, results;
  std::function<void(const std::vector<JobProgress>&)> on_change;
};

class FollowRun : public ::testing::Test {
 protected:
  void SetUp() override {
    options.namespace_name = kNamespace;
    options.run_id = kRun;
    options.logs = submit::LogPolicy::All;
  }

  void plan(const std::vector<json>& objects) {
    for (const auto& object : objects) {
      options.to_create.push_back(kube::prepare_create(kNamespace, object));
      jobs.push_back(JobProgress{object["metadata"]["name"]});
    }
  }

  // follow_run, stopped as by Ctrl-C should it still go after 20 s (a broken follower fails
  // the test instead of hanging it).
  FollowEnd follow() {
    if (!options.interrupted) options.interrupted = &interrupted;
    std::mutex mutex;
    std::condition_variable ended;
    bool done = false;
    std::thread watchdog([&] {
      std::unique_lock lock(mutex);
      if (!ended.wait_for(lock, 20s, [&] { return done; })) interrupted = true;
    });
    auto stop_watchdog = [&] {
      {
        std::lock_guard lock(mutex);
        done = true;
      }
      ended.notify_all();
      watchdog.join();
    };
    try {
      const FollowEnd end = submit::follow_run(*cluster, jobs, std::move(options), sink, view);
      stop_watchdog();
      return end;
    } catch (...) {
      stop_watchdog();
      throw;
    }
  }

  const JobProgress& job(const std::string& name) const {
    for (const auto& job : jobs)
      if (job.name == name) return job;
    throw std::runtime_error("no Job " + name);
  }

  bool said(const std::string& words) const {
    for (const auto& line : sink.said)
      if (line == words) return true;
    return false;
  }

  std::string all_said() const {
    std::string text;
    for (const auto& line : sink.said) text += line + "\n";
    return text;
  }

  std::shared_ptr<FakeCluster> cluster = std::make_shared<FakeCluster>(kNamespace);
  std::ostringstream status, logs;
  submit::FollowView view{status, logs, false};
  RecordingSink sink;
  std::vector<JobProgress> jobs;
  submit::FollowOptions options;
  std::atomic<bool> interrupted{false};
};

TEST_F(FollowRun, JobThatSucceedsIsFollowedToItsLog) {
  cluster->script("", [this](const json& job) -> std::vector<Change> {
    const json pod = pod_of(job, "x1", "Pending");
    cluster->set_log(pod["metadata"]["name"], {"hello", "world"});
    return {{pod},
            lasting(running(pod, "gpu-node-1"), kSeen),
            {terminated(pod, 0)},
            {finished(job, true)}};
  });
  plan({job_object("train-a")});
  ASSERT_EQ(follow(), FollowEnd::Finished);
  EXPECT_EQ(job("train-a").state, JobState::Succeeded);
  EXPECT_EQ(job("train-a").pods.at("train-a-x1").exit_code, 0);
  EXPECT_TRUE(said("train-a: running on gpu-node-1")) << all_said();
  EXPECT_EQ(sink.logs, (std::vector<std::string>{"train-a/-1: hello", "train-a/-1: world"}));
  EXPECT_NE(logs.str().find("[train-a] world"), std::string::npos) << logs.str();
  const auto calls = cluster->calls();
  for (const char* call : {"create Job team/train-a", "watch Job team", "watch Pod team", "watch Event team",
                           "logs team/train-a-x1"})
    EXPECT_NE(std::find(calls.begin(), calls.end(), call), calls.end()) << call;
  EXPECT_EQ(cluster->count_calls("watch Workload"), 0) << "no queue, no Kueue watch";
  ASSERT_TRUE(cluster->object("Job", kNamespace, "train-a"));
  EXPECT_EQ((*cluster->object("Job", kNamespace, "train-a"))["metadata"]["labels"]["gkebuild.io/run"], kRun);
}

TEST_F(FollowRun, FailedJobSaysWhichExitEndedIt) {
  cluster->script("train-a", [](const json& job) -> std::vector<Change> {
    const json pod = pod_of(job, "x1", "Pending");
    return {{running(pod, "n1")}, {terminated(pod, 2)}, {finished(job, false, "BackoffLimitExceeded")}};
  });
  cluster->script("train-b", [](const json& job) -> std::vector<Change> {
    const json pod = pod_of(job, "x1", "Pending");
    return {{running(pod, "n1")}, {terminated(pod, 137, "OOMKilled")}, {finished(job, false, "BackoffLimitExceeded")}};
  });
  plan({job_object("train-a"), job_object("train-b")});
  ASSERT_EQ(follow(), FollowEnd::Finished);
  EXPECT_EQ(job("train-a").state, JobState::Failed);
  EXPECT_EQ(job("train-a").reason, "BackoffLimitExceeded: exit code 2");
  EXPECT_EQ(job("train-b").reason, "BackoffLimitExceeded: exit code 137 (OOMKilled)");
  EXPECT_TRUE(said("train-b: failed: BackoffLimitExceeded: exit code 137 (OOMKilled)")) << all_said();
}

TEST_F(FollowRun, PendingPodSaysWhyItWaits) {
  cluster->script("", [](const json& job) -> std::vector<Change> {
    const json pod = pod_of(job, "x1", "Pending");
    json scheduled = pod;
    scheduled["spec"]["nodeName"] = "gpu-node-7";
    scheduled["status"]["containerStatuses"] = {
        {{"name", "main"}, {"state", {{"waiting", {{"reason", "ContainerCreating"}}}}}}};
    return {{unschedulable(pod, "0/3 nodes are available: 3 Insufficient nvidia.com/gpu.")},
            lasting(pod_event(pod, "TriggeredScaleUp", "pod triggered scale-up: [{gpu-pool 0->1 (max: 4)}]",
                              "2026-01-01T00:00:01Z"),
                    kSeen),
            {scheduled},
            lasting(pod_event(pod, "Pulling", "Pulling image", "2026-01-01T00:00:02Z"), kSeen),
            {running(pod, "gpu-node-7")},
            {terminated(pod, 0)},
            {finished(job, true)}};
  });
  plan({job_object("train-a")});
  ASSERT_EQ(follow(), FollowEnd::Finished);
  EXPECT_TRUE(said("train-a: pending: waiting for a GPU node (scale-up: pod triggered scale-up: "
                   "[{gpu-pool 0->1 (max: 4)}])"))
      << all_said();
  EXPECT_TRUE(said("train-a: pending: pulling the image on gpu-node-7")) << all_said();
  EXPECT_EQ(job("train-a").state, JobState::Succeeded);
}

// A spot node taken back: the pod fails with DisruptionTarget, the Job controller replaces it
// (podFailurePolicy ignores it) and the second pod's success is the Job's.
TEST_F(FollowRun, PreemptedPodIsReplacedAndTheJobSucceeds) {
  cluster->script("", [](const json& job) -> std::vector<Change> {
    json first = running(pod_of(job, "x1", "Pending"), "spot-node-1");
    json preempted = terminated(first, 143);
    preempted["status"]["conditions"] = {
        {{"type", "DisruptionTarget"}, {"status", "True"}, {"reason", "TerminationByKubelet"}}};
    const json second = pod_of(job, "x2", "Pending");
    return {{first},
            {preempted},
            lasting(running(second, "spot-node-2"), kSeen),
            {terminated(second, 0)},
            {with_status(job, {{"succeeded", 1},
                               {"failed", 1},
                               {"conditions", {{{"type", "Complete"}, {"status", "True"}}}}})}};
  });
  plan({job_object("train-a")});
  ASSERT_EQ(follow(), FollowEnd::Finished);
  EXPECT_EQ(job("train-a").state, JobState::Succeeded);
  EXPECT_EQ(job("train-a").pods.size(), 2u);
  EXPECT_TRUE(said("train-a: running on spot-node-2, 1 failed pod replaced")) << all_said();
}

// An eviction names the kubelet's message; a Job past its activeDeadlineSeconds fails as
// DeadlineExceeded with its running pod deleted (the follower then waits a few seconds for
// pods that might still come, and ends).
TEST_F(FollowRun, EvictionAndDeadlineEndJobs) {
  cluster->script("train-a", [](const json& job) -> std::vector<Change> {
    json pod = running(pod_of(job, "x1", "Pending"), "n1");
    pod["status"]["phase"] = "Failed";
    pod["status"]["reason"] = "Evicted";
    pod["status"]["message"] = "The node was low on resource: memory.";
    return {{pod}, {finished(job, false, "BackoffLimitExceeded")}};
  });
  cluster->script("train-b", [](const json& job) -> std::vector<Change> {
    const json pod = running(pod_of(job, "x1", "Pending"), "n2");
    return {lasting(pod, kSeen), {pod, true}, {finished(job, false, "DeadlineExceeded")}};
  });
  plan({job_object("train-a"), job_object("train-b")});
  ASSERT_EQ(follow(), FollowEnd::Finished);
  EXPECT_EQ(job("train-a").reason, "BackoffLimitExceeded: pod evicted: The node was low on resource: memory.");
  EXPECT_EQ(job("train-b").state, JobState::Failed);
  EXPECT_EQ(job("train-b").reason, "DeadlineExceeded");
}

// A multi-node Job: one Indexed Job whose pods are the nodes; each log line carries its rank.
TEST_F(FollowRun, MultiNodePodsAreFollowedWithTheirRanks) {
  cluster->script("", [this](const json& job) -> std::vector<Change> {
    const json rank0 = pod_of(job, "a", "Pending", 0);
    const json rank1 = pod_of(job, "b", "Pending", 1);
    cluster->set_log(rank0["metadata"]["name"], {"rank 0 up"});
    cluster->set_log(rank1["metadata"]["name"], {"rank 1 up"});
    return {{running(rank0, "n1")},
            lasting(running(rank1, "n2"), kSeen),
            {terminated(rank0, 0)},
            {terminated(rank1, 0)},
            {with_status(job, {{"succeeded", 2}, {"conditions", {{{"type", "Complete"}, {"status", "True"}}}}})}};
  });
  plan({job_object("train-a")});
  ASSERT_EQ(follow(), FollowEnd::Finished);
  EXPECT_EQ(job("train-a").state, JobState::Succeeded);
  EXPECT_TRUE(said("train-a: running (2/2 pods)")) << all_said();
  std::vector<std::string> lines = sink.logs;
  std::sort(lines.begin(), lines.end());
  EXPECT_EQ(lines, (std::vector<std::string>{"train-a/0: rank 0 up", "train-a/1: rank 1 up"}));
  EXPECT_NE(logs.str().find("[train-a/1] rank 1 up"), std::string::npos) << logs.str();
}

TEST_F(FollowRun, CapHoldsJobsBackUntilOneFinishes) {
  std::map<std::string, int> finished_when_created;
  cluster->script("", [&](const json& job) -> std::vector<Change> {
    int complete = 0;
    for (const auto& other : cluster->objects("Job"))
      complete += other.value("status", json::object()).contains("completionTime");
    finished_when_created[job["metadata"]["name"]] = complete;
    const json pod = pod_of(job, "x1", "Pending");
    return {{running(pod, "n1")}, {terminated(pod, 0)}, {finished(job, true)}};
  });
  plan({job_object("train-a"), job_object("train-b"), job_object("train-c")});
  options.max_in_flight = 1;
  ASSERT_EQ(follow(), FollowEnd::Finished);
  EXPECT_EQ(finished_when_created, (std::map<std::string, int>{{"train-a", 0}, {"train-b", 1}, {"train-c", 2}}));
  EXPECT_NE(status.str().find("queued (at most 1 Jobs in flight)"), std::string::npos) << status.str();
  for (const auto& job : jobs) EXPECT_EQ(job.state, JobState::Succeeded) << job.name;
}

TEST_F(FollowRun, DetachCreatesEveryJobAndReturns) {
  std::vector<std::pair<std::string, std::string>> created;
  options.created = [&](const auto& round) { created.insert(created.end(), round.begin(), round.end()); };
  options.follow = false;
  options.max_in_flight = 1;  // a detached run cannot keep a cap
  plan({job_object("train-a"), job_object("train-b")});
  ASSERT_EQ(follow(), FollowEnd::Detached);
  EXPECT_EQ(cluster->count_calls("create Job"), 2);
  EXPECT_EQ(cluster->count_calls("watch"), 0);
  ASSERT_EQ(created.size(), 2u);
  for (const auto& [name, uid] : created) {
    ASSERT_TRUE(cluster->object("Job", kNamespace, name)) << name;
    EXPECT_EQ(uid, (*cluster->object("Job", kNamespace, name))["metadata"]["uid"]) << name;
  }
}

TEST_F(FollowRun, CtrlCStopsFollowingAndDropsJobsNotCreated) {
  cluster->script("", [](const json& job) -> std::vector<Change> {
    return {{running(pod_of(job, "x1", "Pending"), "n1")}};  // runs on and on
  });
  sink.on_change = [this](const std::vector<JobProgress>& now) {
    if (now.front().state == JobState::Running) interrupted = true;
  };
  options.max_in_flight = 1;
  plan({job_object("train-a"), job_object("train-b")});
  ASSERT_EQ(follow(), FollowEnd::Interrupted);
  EXPECT_EQ(job("train-a").state, JobState::Running);
  EXPECT_EQ(job("train-b").state, JobState::Failed);
  EXPECT_EQ(job("train-b").reason, "not created: following stopped before the in-flight cap let it start");
  EXPECT_EQ(cluster->count_calls("create Job"), 1);
}

TEST_F(FollowRun, RefusedCreateEndsTheFollowAndSaysWhy) {
  cluster->refuse("create Job", 403);
  plan({job_object("train-a")});
  EXPECT_THROW(follow(), kube::ApiError);
  EXPECT_EQ(job("train-a").state, JobState::Failed);
  EXPECT_TRUE(job("train-a").reason.starts_with("not created: create Job team/train-a")) << job("train-a").reason;
}

TEST_F(FollowRun, RefusedWatchEndsTheFollow) {
  cluster->refuse("watch Pod", 403);
  plan({job_object("train-a")});
  EXPECT_THROW(follow(), kube::ApiError);
}

TEST_F(FollowRun, QueuedJobOnAClusterWithoutKueueSaysSo) {
  cluster->refuse("watch Workload", 404);
  cluster->script("", [](const json& job) -> std::vector<Change> {
    json admitted = job;
    admitted["spec"]["suspend"] = false;
    const json pod = pod_of(job, "x1", "Pending");
    return {lasting(with_status(job, json::object()), kSeen), {admitted}, {running(pod, "n1")},
            {terminated(pod, 0)}, {finished(admitted, true)}};
  });
  options.queue = "lq";
  plan({job_object("train-a", true)});
  ASSERT_EQ(follow(), FollowEnd::Finished);
  EXPECT_TRUE(said(std::string("train-a: pending: queued (") + submit::kNoKueue + ")")) << all_said();
  EXPECT_EQ(job("train-a").state, JobState::Succeeded);
}

TEST_F(FollowRun, QueuedJobSaysWhyKueueDoesNotAdmitIt) {
  cluster->script("", [](const json& job) -> std::vector<Change> {
    const json workload = {
        {"apiVersion", "kueue.x-k8s.io/v1beta1"},
        {"kind", "Workload"},
        {"metadata",
         {{"name", "job-train-a-1"},
          {"namespace", kNamespace},
          {"ownerReferences", {{{"kind", "Job"}, {"name", job["metadata"]["name"]}}}}}},
        {"status",
         {{"conditions",
           {{{"type", "QuotaReserved"}, {"status", "False"}, {"reason", "Inadmissible"},
             {"message", "LocalQueue lq doesn't exist"}}}}}}};
    return {{with_status(job, json::object())}, lasting(workload, kSeen), {job, true}};  // deleted by its user
  });
  options.queue = "lq";
  plan({job_object("train-a", true)});
  ASSERT_EQ(follow(), FollowEnd::Finished);
  EXPECT_TRUE(said("train-a: pending: queued (Kueue: inadmissible: LocalQueue lq doesn't exist)")) << all_said();
  EXPECT_EQ(job("train-a").reason, "Deleted");
  EXPECT_EQ(cluster->count_calls("watch Workload team"), 1);
}

// LogPolicy::Failed: the first pods to run have their logs read; later pods' results come from
// their termination messages, unless they failed.
TEST_F(FollowRun, UnderTheFailedPolicyOnlyTheFirstAndFailedPodsLogsAreRead) {
  cluster->script("train-a", [](const json& job) -> std::vector<Change> {
    const json pod = pod_of(job, "x1", "Pending");
    return {lasting(running(pod, "n1"), 200ms), {terminated(pod, 0, "", kResultLine)}, {finished(job, true)}};
  });
  cluster->script("train-b", [](const json& job) -> std::vector<Change> {
    const json pod = pod_of(job, "x1", "Pending");
    return {lasting(pod, 100ms), {terminated(pod, 0, "", kResultLine)}, {finished(job, true)}};
  });
  cluster->script("train-c", [](const json& job) -> std::vector<Change> {
    const json pod = pod_of(job, "x1", "Pending");
    return {lasting(pod, 100ms), {terminated(pod, 1, "", kResultLine)}, {finished(job, false, "BackoffLimitExceeded")}};
  });
  options.logs = submit::LogPolicy::Failed;
  options.max_log_streams = 1;
  plan({job_object("train-a"), job_object("train-b"), job_object("train-c")});
  ASSERT_EQ(follow(), FollowEnd::Finished);
  EXPECT_EQ(cluster->count_calls("logs team/train-a-"), 1);
  EXPECT_EQ(cluster->count_calls("logs team/train-b-"), 0);
  EXPECT_EQ(cluster->count_calls("logs team/train-c-"), 1);
  EXPECT_EQ(sink.results, (std::vector<std::string>{std::string("train-b/-1: ") + kResultLine}));
  EXPECT_TRUE(job("train-b").pods.at("train-b-x1").results_from_message);
}

// Re-attaching (logs -f): the record holds two lines of the pod's log; only the third comes.
TEST_F(FollowRun, ReattachingRepeatsNoLineTheRecordHas) {
  json stored = job_object("train-a");
  stored["metadata"]["namespace"] = kNamespace;
  const json pod = running(pod_of(stored, "x1", "Pending"), "n1");
  cluster->put(with_status(stored, {{"active", 1}, {"ready", 1}}));
  cluster->put(pod);
  cluster->set_log("train-a-x1", {"one", "two", "three"});
  jobs.push_back(JobProgress{"train-a", JobState::Running});
  jobs.back().pods["train-a-x1"].name = "train-a-x1";
  jobs.back().pods["train-a-x1"].log_lines = 2;
  cluster->play({lasting(pod, 200ms), {terminated(pod, 0)}, {finished(stored, true)}});
  ASSERT_EQ(follow(), FollowEnd::Finished);
  EXPECT_EQ(sink.logs, (std::vector<std::string>{"train-a/-1: three"}));
  EXPECT_EQ(job("train-a").state, JobState::Succeeded);
  EXPECT_EQ(cluster->count_calls("create"), 0);
}

}  // namespace
}  // namespace gkebuild::testing
