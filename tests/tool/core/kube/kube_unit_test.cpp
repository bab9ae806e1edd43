// The client's small pure parts: REST paths and how refusals read.
#include <gtest/gtest.h>

#include "tool/core/kube/api_error.h"
#include "tool/core/kube/events.h"
#include "tool/core/kube/resources.h"

namespace gkebuild::kube {
namespace {

TEST(Resources, MapsKindsToRestPaths) {
  EXPECT_EQ(collection_path(resource_type("batch/v1", "Job"), "team"), "/apis/batch/v1/namespaces/team/jobs");
  EXPECT_EQ(object_path(resource_type("v1", "Namespace"), "ignored", "team"), "/api/v1/namespaces/team");
  EXPECT_EQ(object_path(resource_type("apps/v1", "DaemonSet"), "kube-system", "nvidia-driver-installer"),
            "/apis/apps/v1/namespaces/kube-system/daemonsets/nvidia-driver-installer");
  EXPECT_EQ(collection_path(resource_type("v1", "PersistentVolume"), "x"), "/api/v1/persistentvolumes");
  EXPECT_EQ(object_path(resource_type("v1", "Pod"), "team", "a b/c"), "/api/v1/namespaces/team/pods/a%20b%2Fc");
  try {
    resource_type("batch/v1", "Jobs");
    FAIL();
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("did you mean 'batch/v1 Job'"), std::string::npos) << error.what();
  }
}

TEST(ApiError, SaysWhatHappenedWithReasonMessageAndCauses) {
  const std::string body = R"({"kind":"Status","status":"Failure","code":422,"reason":"Invalid",
    "message":"Job.batch \"x\" is invalid",
    "details":{"causes":[{"reason":"FieldValueRequired","message":"Required value",
                          "field":"spec.template.spec.containers"}]}})";
  const ApiError error("create Job team/x", 422, body);
  const std::string text = error.what();
  EXPECT_EQ(error.reason(), "Invalid");
  EXPECT_NE(text.find("create Job team/x: the cluster rejected the object"), std::string::npos) << text;
  EXPECT_NE(text.find("message: Job.batch \"x\" is invalid"), std::string::npos) << text;
  EXPECT_NE(text.find("- spec.template.spec.containers: Required value (FieldValueRequired)"), std::string::npos)
      << text;
  const ApiError plain("get Pod a/b", 502, "<html>Bad gateway</html>\nmore");
  EXPECT_NE(std::string(plain.what()).find("the API server failed (502)"), std::string::npos);
  EXPECT_NE(std::string(plain.what()).find("<html>Bad gateway</html>"), std::string::npos);
}

// The scheduler records FailedScheduling through events.k8s.io: read as core/v1 it has eventTime
// and null lastTimestamp and count. Such an event keeps its time and its place in the order.
TEST(Events, SchedulerEventsWithOnlyEventTimeSortByThatTime) {
  const auto scheduler = object_event(nlohmann::json::parse(R"({"reason": "FailedScheduling", "type": "Warning",
      "message": "0/3 nodes are available", "eventTime": "2026-11-23T10:00:01.250000Z",
      "lastTimestamp": null, "firstTimestamp": null, "count": null})"));
  EXPECT_EQ(scheduler.last_seen, "2026-11-23T10:00:01.250000Z");
  EXPECT_EQ(scheduler.count, 1);
  const auto autoscaler = object_event(nlohmann::json::parse(R"({"reason": "TriggeredScaleUp",
      "lastTimestamp": "2026-11-23T10:00:05Z", "eventTime": null, "count": 2})"));
  const auto kubelet = object_event(nlohmann::json::parse(R"({"reason": "Pulling",
      "firstTimestamp": "2026-11-23T10:00:00Z"})"));
  std::vector<ObjectEvent> events = {autoscaler, scheduler, kubelet};
  sort_by_time(events);
  EXPECT_EQ(events[0].reason, "Pulling");
  EXPECT_EQ(events[1].reason, "FailedScheduling");
  EXPECT_EQ(events[2].reason, "TriggeredScaleUp");
  EXPECT_EQ(events[2].count, 2);
}

}  // namespace
}  // namespace gkebuild::kube
