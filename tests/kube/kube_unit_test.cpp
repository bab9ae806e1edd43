// The client's small pure parts: timestamps, base64, REST paths and how refusals read.
#include <gtest/gtest.h>

#include "kube/api_error.h"
#include "kube/base64.h"
#include "kube/resources.h"
#include "kube/rfc3339.h"

namespace gkebuild::kube {
namespace {

TEST(Rfc3339, ParsesZuluOffsetsAndFractions) {
  const auto zulu = parse_rfc3339("2024-05-01T10:00:00Z");
  const auto offset = parse_rfc3339("2024-05-01T12:00:00+02:00");
  ASSERT_TRUE(zulu && offset);
  EXPECT_EQ(*zulu, *offset);
  EXPECT_EQ(format_rfc3339_seconds(*parse_rfc3339("2024-05-01T10:00:00.999Z")), "2024-05-01T10:00:00Z");
  EXPECT_FALSE(parse_rfc3339("2024-05-01 10:00:00"));
  EXPECT_FALSE(parse_rfc3339("yesterday"));
}

TEST(Rfc3339, SortableTimestampsOrderAsTimesDo) {
  // Go trims trailing zeros, so ".5" is later than ".123456789" though it sorts first as text.
  const auto early = sortable_timestamp("2024-05-01T10:00:00.123456789Z");
  const auto late = sortable_timestamp("2024-05-01T10:00:00.5Z");
  ASSERT_TRUE(early && late);
  EXPECT_LT(*early, *late);
  EXPECT_EQ(*late, "2024-05-01T10:00:00.500000000Z");
}

TEST(Base64, RoundTripsAndRejectsGarbage) {
  for (std::string text : {"", "a", "ab", "abc", "-----BEGIN CERTIFICATE-----\n"}) {
    auto decoded = base64_decode(base64_encode(text));
    ASSERT_TRUE(decoded);
    EXPECT_EQ(*decoded, text);
  }
  EXPECT_EQ(*base64_decode("aGVs\nbG8="), "hello");
  EXPECT_FALSE(base64_decode("not base64!"));
}

TEST(Resources, MapsKindsToRestPaths) {
  EXPECT_EQ(collection_path(resource_type("batch/v1", "Job"), "team"), "/apis/batch/v1/namespaces/team/jobs");
  EXPECT_EQ(object_path(resource_type("v1", "Namespace"), "ignored", "team"), "/api/v1/namespaces/team");
  EXPECT_EQ(object_path(resource_type("apps/v1", "DaemonSet"), "kube-system", "nvidia-driver-installer"),
            "/apis/apps/v1/namespaces/kube-system/daemonsets/nvidia-driver-installer");
  EXPECT_EQ(collection_path(resource_type("v1", "PersistentVolume"), "x"), "/api/v1/persistentvolumes");
  EXPECT_EQ(query_escape("job-name=a b"), "job-name%3Da%20b");
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

}  // namespace
}  // namespace gkebuild::kube
