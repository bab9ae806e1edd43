// The test server's Job controller (tests/tool/core/kube/job_controller.py) as a client sees it through
// the API: failed pods replaced up to backoffLimit, podFailurePolicy rules, Indexed Jobs'
// completedIndexes, activeDeadlineSeconds and ttlSecondsAfterFinished.
#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <thread>

#include "base/http_client.h"
#include "test_objects.h"
#include "test_server.h"
#include "tool/core/kube/client.h"
#include "tool/core/kube/objects.h"

namespace gkebuild::kube {
namespace {

using nlohmann::json;
using testing::KubeTestServer;
using testing::test_job;

class JobControllerTest : public ::testing::Test {
 protected:
  json job() { return get(client, resource_type("batch/v1", "Job"), "default", "train").value_or(json()); }

  json pods() {
    ListOptions options;
    options.label_selector = "batch.kubernetes.io/job-name=train";
    return list(client, resource_type("v1", "Pod"), "default", options)["items"];
  }

  std::vector<std::string> pods_in(const std::string& phase) {
    std::vector<std::string> names;
    for (const auto& pod : pods())
      if (pod["status"]["phase"] == phase) names.push_back(pod["metadata"]["name"]);
    return names;
  }

  // The reason of the Job's Failed condition, "Complete", or "" while it runs.
  static std::string outcome(const json& job) {
    for (const auto& condition : job["status"].value("conditions", json::array()))
      if (condition["status"] == "True" && (condition["type"] == "Failed" || condition["type"] == "Complete"))
        return condition["type"] == "Complete" ? "Complete" : condition.value("reason", "Failed");
    return "";
  }

  void advance(const std::string& phase, const json& extra = json::object()) {
    json request = {{"namespace", "default"}, {"name", "train"}, {"phase", phase}};
    request.update(extra);
    server.control("job", request);
  }

  // Polls (the controller's timers run on their own) until `done` holds, for a few seconds at most.
  template <typename Done>
  bool eventually(Done done) {
    for (int i = 0; i < 200; ++i) {
      if (done()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }

  KubeTestServer server;
  Client client{server.access()};
};

TEST_F(JobControllerTest, FailedPodsAreReplacedUntilTheBackoffLimit) {
  json spec = test_job("train");
  spec["spec"]["backoffLimit"] = 2;
  create(client, spec);
  for (int attempt = 1; attempt <= 2; ++attempt) {
    advance("failed", {{"exit_code", 1}});
    EXPECT_EQ(outcome(job()), "") << job().dump();
    EXPECT_EQ(job()["status"]["failed"], attempt);
    EXPECT_EQ(pods_in("Pending").size(), 1u) << "the replacement";
  }
  advance("failed", {{"exit_code", 1}});
  EXPECT_EQ(outcome(job()), "BackoffLimitExceeded");
  EXPECT_EQ(job()["status"]["failed"], 3);
  EXPECT_EQ(pods().size(), 3u);
  // The controller's events on the Job: a SuccessfulCreate per pod, then the failure.
  ListOptions options;
  options.field_selector = "involvedObject.kind=Job";
  std::multiset<std::string> reasons;
  const json events = list(client, resource_type("v1", "Event"), "default", options);
  for (const auto& event : events["items"])
    reasons.insert(event["reason"].get<std::string>());
  EXPECT_EQ(reasons, (std::multiset<std::string>{"SuccessfulCreate", "SuccessfulCreate", "SuccessfulCreate",
                                                 "BackoffLimitExceeded"}));
}

// restartPolicy OnFailure: the kubelet restarts the container in its pod (the old instance's log
// stays readable with previous=true), and each restart counts towards backoffLimit.
TEST_F(JobControllerTest, OnFailureRestartsTheContainerInItsPod) {
  json spec = test_job("train", "OnFailure");
  spec["spec"]["backoffLimit"] = 1;
  create(client, spec);
  advance("running");
  const std::string pod = pods()[0]["metadata"]["name"];
  server.control("log", {{"namespace", "default"}, {"pod", pod}, {"lines", {"first try"}}});
  advance("failed", {{"exit_code", 3}});
  ASSERT_EQ(pods().size(), 1u);
  const json restarted = pods()[0]["status"]["containerStatuses"][0];
  EXPECT_EQ(restarted["restartCount"], 1);
  EXPECT_EQ(restarted["lastState"]["terminated"]["exitCode"], 3);
  EXPECT_EQ(outcome(job()), "");
  HttpClient http(HttpClientOptions{.tls = {.ca_pem = server.ca_pem()}});
  const auto old_log = http.send({"GET", server.server() + "/api/v1/namespaces/default/pods/" + pod + "/log?previous=true"});
  EXPECT_EQ(old_log.body, "first try\n");
  advance("failed", {{"exit_code", 3}});
  EXPECT_EQ(outcome(job()), "BackoffLimitExceeded");
  EXPECT_TRUE(pods().empty()) << "the controller deletes the active pod";
}

TEST_F(JobControllerTest, PodFailurePolicyIgnoresDisruptionsAndFailsOnAnExitCode) {
  json spec = test_job("train");
  spec["spec"]["backoffLimit"] = 0;
  spec["spec"]["podFailurePolicy"] = json::parse(R"({"rules": [
      {"action": "FailJob", "onExitCodes": {"containerName": "main", "operator": "In", "values": [42]}},
      {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]}]})");
  create(client, spec);
  advance("running");
  advance("failed", {{"pod_failure", "Preempted"}});  // a spot node shut down: not counted
  EXPECT_EQ(outcome(job()), "");
  EXPECT_EQ(job()["status"].value("failed", 0), 0);
  const auto failed = pods_in("Failed");
  ASSERT_EQ(failed.size(), 1u);
  advance("failed", {{"pod_failure", "PreemptionByScheduler"}});
  EXPECT_EQ(outcome(job()), "");
  ASSERT_EQ(pods_in("Pending").size(), 1u);
  const std::string last = pods_in("Pending")[0];
  advance("failed", {{"exit_code", 42}});
  EXPECT_EQ(outcome(job()), "PodFailurePolicy");
  std::string message;
  const json ended = job();
  for (const auto& condition : ended["status"]["conditions"])
    if (condition["type"] == "Failed") message = condition["message"];
  EXPECT_EQ(message, "Container main for pod default/" + last + " failed with exit code 42 matching FailJob rule at "
                     "index 0");
  // What a preempted pod looked like: Failed, with DisruptionTarget from the kubelet.
  for (const auto& pod : pods())
    if (pod["metadata"]["name"] == failed[0]) {
      EXPECT_EQ(pod["status"]["reason"], "Terminated");
      bool disruption = false;
      for (const auto& condition : pod["status"]["conditions"])
        disruption |= condition["type"] == "DisruptionTarget" && condition["reason"] == "TerminationByKubelet";
      EXPECT_TRUE(disruption) << pod.dump();
    }
}

TEST_F(JobControllerTest, IndexedJobKeepsParallelismAndListsCompletedIndexes) {
  json spec = test_job("train");
  spec["spec"].update({{"completionMode", "Indexed"}, {"completions", 4}, {"parallelism", 2}});
  create(client, spec);
  ASSERT_EQ(pods().size(), 2u);
  std::string index1;
  for (const auto& pod : pods())
    if (pod["metadata"]["annotations"]["batch.kubernetes.io/job-completion-index"] == "1") index1 = pod["metadata"]["name"];
  advance("succeeded", {{"pods", {index1}}});
  EXPECT_EQ(job()["status"]["completedIndexes"], "1");
  EXPECT_EQ(pods_in("Pending").size(), 2u) << "index 2 starts as soon as index 1 is done";
  for (const auto& name : pods_in("Pending")) {
    for (const auto& pod : pods())
      if (pod["metadata"]["name"] == name && pod["metadata"]["annotations"]["batch.kubernetes.io/job-completion-index"] != "0")
        advance("succeeded", {{"pods", {name}}});
  }
  EXPECT_EQ(job()["status"]["completedIndexes"], "1,2");  // two in a row are not a range
  EXPECT_EQ(pods_in("Pending").size(), 2u) << "indexes 0 and 3";
  advance("succeeded");
  EXPECT_EQ(job()["status"]["completedIndexes"], "0-3");
  EXPECT_EQ(outcome(job()), "Complete");
  EXPECT_EQ(server.control("stats")["max_active_pods"]["train"], 2);
}

// backoffLimitPerIndex: an index that fails more often than that fails alone (failedIndexes);
// the others still run, and the Job fails at the end with FailedIndexes.
TEST_F(JobControllerTest, IndexesFailOnTheirOwnWithABackoffLimitPerIndex) {
  json spec = test_job("train");
  spec["spec"].update({{"completionMode", "Indexed"}, {"completions", 2}, {"parallelism", 2},
                       {"backoffLimitPerIndex", 0}});
  create(client, spec);
  std::string index0;
  for (const auto& pod : pods())
    if (pod["metadata"]["annotations"]["batch.kubernetes.io/job-completion-index"] == "0") index0 = pod["metadata"]["name"];
  advance("failed", {{"exit_code", 1}, {"pods", {index0}}});
  EXPECT_EQ(job()["status"]["failedIndexes"], "0");
  EXPECT_EQ(outcome(job()), "");
  EXPECT_EQ(pods_in("Pending").size(), 1u) << "index 0 is not retried";
  advance("succeeded");
  EXPECT_EQ(job()["status"]["completedIndexes"], "1");
  EXPECT_EQ(outcome(job()), "FailedIndexes");
}

TEST_F(JobControllerTest, DeadlineFailsTheJobAndTtlDeletesIt) {
  json spec = test_job("train");
  spec["spec"].update({{"activeDeadlineSeconds", 1}, {"ttlSecondsAfterFinished", 1}});
  create(client, spec);
  advance("running");
  ASSERT_TRUE(eventually([&] { return outcome(job()) != ""; }));
  EXPECT_EQ(outcome(job()), "DeadlineExceeded");
  EXPECT_TRUE(pods_in("Running").empty()) << "the controller deletes the active pods";
  ASSERT_TRUE(eventually([&] { return job().is_null(); })) << "the TTL controller deletes the Job";
}

}  // namespace
}  // namespace gkebuild::kube
