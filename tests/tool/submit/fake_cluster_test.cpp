// The fake cluster refuses what the API server refuses (fake_admission.h, fake_field_managers.h):
// each test here passed on the fake that took anything, where a real server says no.
#include <gtest/gtest.h>

#include "fake_cluster.h"
#include "tool/core/kube/api_error.h"

namespace gkebuild::testing {
namespace {

using nlohmann::json;

json job(const std::string& name, const std::string& ns = "team") {
  return {{"apiVersion", "batch/v1"},
          {"kind", "Job"},
          {"metadata", {{"name", name}, {"namespace", ns}}},
          {"spec",
           {{"template",
             {{"spec", {{"restartPolicy", "Never"}, {"containers", {{{"name", "main"}, {"image", "busybox"}}}}}}}}}}};
}

json config_map(const std::string& name, json data) {
  return {{"apiVersion", "v1"},
          {"kind", "ConfigMap"},
          {"metadata", {{"name", name}, {"namespace", "team"}}},
          {"data", std::move(data)}};
}

// The status of the ApiError `call` throws, or 0 when it throws none.
template <typename Call>
long refusal(Call call, kube::ApiError* error = nullptr) {
  try {
    call();
  } catch (const kube::ApiError& refused) {
    if (error) *error = refused;
    return refused.status();
  }
  return 0;
}

TEST(FakeCluster, RefusesANameTheServerRefuses) {
  FakeCluster cluster("team");
  kube::ApiError error("", 0, "");
  EXPECT_EQ(refusal([&] { cluster.create(job("Train_Model"), false); }, &error), 422);
  ASSERT_EQ(error.causes().size(), 1u);
  EXPECT_EQ(error.causes()[0].field, "metadata.name");
  EXPECT_EQ(refusal([&] { cluster.create(job(std::string(64, 'a')), false); }), 422) << "a Job name is a label value";
  EXPECT_EQ(refusal([&] { cluster.apply(config_map("a/../../x", json::object()), {}); }), 422);
  EXPECT_EQ(refusal([&] { cluster.apply({{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "a.b"}}}}, {}); }),
            422) << "a Namespace name is a DNS label";
  EXPECT_TRUE(cluster.objects("Job").empty());
  EXPECT_EQ(refusal([&] { cluster.create(job("train-model"), false); }), 0);
}

TEST(FakeCluster, ANamespaceThatDoesNotExistIsNotFound) {
  FakeCluster cluster("team");
  kube::ApiError error("", 0, "");
  EXPECT_EQ(refusal([&] { cluster.create(job("train", "elsewhere"), false); }, &error), 404);
  EXPECT_EQ(error.reason(), "NotFound");
  EXPECT_EQ(refusal([&] { cluster.send_create(kube::prepare_create("team", job("train", "elsewhere")), nullptr); }), 404);
  EXPECT_EQ(refusal([&] { cluster.create(job("train", "default"), false); }), 0) << "a cluster starts with default";
  cluster.apply({{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "elsewhere"}}}}, {});
  EXPECT_EQ(refusal([&] { cluster.create(job("train", "elsewhere"), false); }), 0);
}

TEST(FakeCluster, ChecksObjectsAgainstTheEmbeddedSchemas) {
  FakeCluster cluster("team");
  json wrong_type = job("train");
  wrong_type["spec"]["parallelism"] = "two";
  kube::ApiError error("", 0, "");
  EXPECT_EQ(refusal([&] { cluster.create(wrong_type, false); }, &error), 422);
  ASSERT_FALSE(error.causes().empty());
  EXPECT_EQ(error.causes()[0].field, "spec.parallelism") << error.what();
  json no_container_name = job("train");
  no_container_name["spec"]["template"]["spec"]["containers"][0].erase("name");
  EXPECT_EQ(refusal([&] { cluster.create(no_container_name, false); }, &error), 422);
  json unknown = job("train");
  unknown["spec"]["template"]["spec"]["containers"][0]["gpus"] = 1;
  EXPECT_EQ(refusal([&] { cluster.create(unknown, false); }, &error), 422);
  EXPECT_NE(std::string(error.what()).find("gpus"), std::string::npos) << error.what();
  EXPECT_TRUE(cluster.objects("Job").empty());
}

TEST(FakeCluster, ADryRunIsRefusedWhereTheRealRequestWouldBe) {
  FakeCluster cluster("team");
  EXPECT_EQ(refusal([&] { cluster.create(job("Bad_Name"), true); }), 422);
  EXPECT_EQ(refusal([&] { cluster.create(job("train", "elsewhere"), true); }), 404);
  kube::ApplyOptions dry_run;
  dry_run.dry_run = true;
  EXPECT_EQ(refusal([&] { cluster.apply(config_map("Bad_Name", json::object()), dry_run); }), 422);
  cluster.put(config_map("settings", {{"mode", "fast"}}), "kubectl-edit");
  EXPECT_EQ(refusal([&] { cluster.apply(config_map("settings", {{"mode", "slow"}}), dry_run); }), 409);
  EXPECT_EQ(refusal([&] { cluster.create(job("train"), true); }), 0);
  EXPECT_TRUE(cluster.objects("Job").empty()) << "a dry run stores nothing";
  EXPECT_EQ(cluster.object("ConfigMap", "team", "settings")->at("data")["mode"], "fast");
}

TEST(FakeCluster, ApplyConflictsOnAFieldAnotherManagerOwnsUnlessForced) {
  FakeCluster cluster("team");
  cluster.put(config_map("settings", {{"mode", "fast"}, {"owner", "ops"}}), "kubectl-edit");
  kube::ApiError error("", 0, "");
  EXPECT_EQ(refusal([&] { cluster.apply(config_map("settings", {{"mode", "slow"}}), {}); }, &error), 409);
  EXPECT_EQ(error.reason(), "Conflict");
  ASSERT_EQ(error.causes().size(), 1u);
  EXPECT_EQ(error.causes()[0].field, ".data.mode");
  EXPECT_NE(error.causes()[0].message.find("kubectl-edit"), std::string::npos);
  EXPECT_EQ(cluster.object("ConfigMap", "team", "settings")->at("data")["mode"], "fast");
  // The same value is no conflict: both own the field.
  EXPECT_EQ(refusal([&] { cluster.apply(config_map("settings", {{"owner", "ops"}}), {}); }), 0);
  kube::ApplyOptions force;
  force.force = true;
  EXPECT_EQ(refusal([&] { cluster.apply(config_map("settings", {{"mode", "slow"}}), force); }), 0);
  const json stored = *cluster.object("ConfigMap", "team", "settings");
  EXPECT_EQ(stored["data"]["mode"], "slow");
  EXPECT_EQ(stored["data"]["owner"], "ops") << "kubectl-edit still owns it";
}

TEST(FakeCluster, ApplyRemovesWhatItsManagerNoLongerSends) {
  FakeCluster cluster("team");
  cluster.apply(config_map("settings", {{"mode", "fast"}, {"retries", "3"}}), {});
  cluster.apply(config_map("settings", {{"mode", "fast"}}), {});
  EXPECT_EQ(cluster.object("ConfigMap", "team", "settings")->at("data"), json({{"mode", "fast"}}))
      << "server-side apply is not a merge patch";
  kube::ApplyOptions other;
  other.field_manager = "other-tool";
  cluster.apply(config_map("settings", {{"mode", "fast"}}), other);
  cluster.apply(config_map("settings", {{"level", "2"}}), {});
  EXPECT_EQ(cluster.object("ConfigMap", "team", "settings")->at("data"), json({{"level", "2"}, {"mode", "fast"}}))
      << "a field another manager also set stays";
}

}  // namespace
}  // namespace gkebuild::testing
