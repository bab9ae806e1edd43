// The REST client against the Kubernetes test server: TLS and client certificates,
// exec-plugin tokens renewed after a 401, server-side apply, create, delete,
// events, and refusals (403, 409, 422) reported in plain words without secrets.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "base/rfc3339.h"
#include "tool/core/kube/api_error.h"
#include "tool/core/kube/client.h"
#include "tool/core/kube/events.h"
#include "tool/core/kube/objects.h"
#include "failure_of.h"
#include "test_objects.h"
#include "test_server.h"

namespace gkebuild::kube {
namespace {

using nlohmann::json;
using testing::failure_of;
using testing::KubeTestServer;
using testing::test_job;

json config_map(const std::string& name, const json& data) {
  return {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", name}}}, {"data", data}};
}

// Lists come in pages (limit and continue) and are put together; a continue token that expired
// between two pages (410) starts the list again in one request.
TEST(KubeClient, ListsReadEveryPageAndStartAgainWhenATokenExpires) {
  KubeTestServer server;
  Client client(server.access());
  for (int i = 0; i < 7; ++i) server_side_apply(client, config_map("c" + std::to_string(i), {{"k", "v"}}));
  server.control("reset_stats");
  ListOptions options;
  options.page_size = 3;
  const json listed = list(client, resource_type("v1", "ConfigMap"), "default", options);
  EXPECT_EQ(listed["items"].size(), 7u);
  EXPECT_FALSE(listed["metadata"].contains("continue"));
  EXPECT_EQ(server.control("stats")["requests"].value("list configmaps", 0), 3);

  server.control("reset_stats");
  server.control("config", {{"expire_continue", true}});
  const json again = list(client, resource_type("v1", "ConfigMap"), "default", options);
  EXPECT_EQ(again["items"].size(), 7u);
  EXPECT_EQ(server.control("stats")["requests"].value("list configmaps", 0), 3);  // page, 410, whole list
}

// API Priority and Fairness says 429 with Retry-After: the request is sent again after that long.
TEST(KubeClient, ThrottledRequestsAreTriedAgainAfterRetryAfter) {
  KubeTestServer server;
  Client client(server.access());
  server.control("config", {{"throttle", 2}, {"retry_after", 1}});
  const long before = client.requests_sent();
  EXPECT_EQ(list(client, resource_type("v1", "Namespace"), "").value("items", json::array()).size(), 2u);
  EXPECT_EQ(client.requests_sent() - before, 3);
  EXPECT_EQ(server.control("stats")["stats"].value("throttled", 0), 2);

  server.control("config", {{"throttle", kMaxThrottledRetries + 1}, {"retry_after", 0}});
  const std::string refused = failure_of([&] { list(client, resource_type("v1", "Namespace"), ""); });
  EXPECT_NE(refused.find("throttling"), std::string::npos) << refused;
}

TEST(KubeClient, TlsWithTheTestCaAndAClientCertificate) {
  KubeTestServer server;
  server.control("config", {{"tokens", {"a-token-nobody-has"}}});  // requests must authenticate
  Client with_certificate(server.access("    client-certificate: client.crt\n    client-key: client.key\n"));
  EXPECT_EQ(list(with_certificate, resource_type("v1", "Namespace"), "").value("items", json::array()).size(), 2u);

  Client anonymous(server.access());
  const std::string refused = failure_of([&] { list(anonymous, resource_type("v1", "Namespace"), ""); });
  EXPECT_NE(refused.find("did not accept the credentials"), std::string::npos) << refused;

  // The certificate names kube.test; tls-server-name makes 127.0.0.1 acceptable under that name.
  Client by_name(server.access("    client-certificate: client.crt\n    client-key: client.key\n",
                               "    tls-server-name: kube.test\n"));
  EXPECT_NO_THROW(list(by_name, resource_type("v1", "Namespace"), ""));
  Client wrong_name(server.access("    {}\n", "    tls-server-name: elsewhere.test\n"));
  const std::string mismatch = failure_of([&] { list(wrong_name, resource_type("v1", "Namespace"), ""); });
  EXPECT_NE(mismatch.find("cannot reach the Kubernetes API server"), std::string::npos) << mismatch;

  ClusterAccess untrusted = server.access();
  untrusted.cluster.ca_pem.clear();  // the system store does not know the test CA
  Client unverified(untrusted);
  EXPECT_NE(failure_of([&] { list(unverified, resource_type("v1", "Namespace"), ""); }).find("cannot reach"),
            std::string::npos);
  untrusted.cluster.insecure_skip_tls_verify = true;
  untrusted.user.client_certificate_pem = server.read(server.file("client.crt"));
  untrusted.user.client_key_pem = server.read(server.file("client.key"));
  Client insecure(untrusted);
  EXPECT_NO_THROW(list(insecure, resource_type("v1", "Namespace"), ""));
}

class ExecPlugin : public ::testing::TestWithParam<const char*> {};

TEST_P(ExecPlugin, TokenIsCachedAndRenewedOnceAfterA401) {
  KubeTestServer server;
  server.control("config", {{"tokens", {"token-one"}}});
  std::ofstream(server.file("token")) << "token-one";
  const std::string api_version = GetParam();
  Client client(server.access(server.exec_user(api_version)));
  const auto& namespaces = resource_type("v1", "Namespace");
  list(client, namespaces, "");
  list(client, namespaces, "");
  EXPECT_EQ(client.credential_plugin_runs(), 1);  // cached until expiry or a 401
  const json info = json::parse(server.read(server.file("runs.info")));
  EXPECT_EQ(info["apiVersion"], api_version);
  EXPECT_EQ(info["spec"]["cluster"]["server"], server.server());
  EXPECT_FALSE(info["spec"]["interactive"].get<bool>());

  // The cluster stops accepting the old token: the next request gets a 401,
  // the plugin runs again and the request is retried once with the new token.
  server.control("config", {{"tokens", {"token-two"}}});
  std::ofstream(server.file("token")) << "token-two";
  const long before = client.requests_sent();
  list(client, namespaces, "");
  EXPECT_EQ(client.credential_plugin_runs(), 2);
  EXPECT_EQ(client.requests_sent() - before, 2);

  // A plugin that keeps returning a refused token: one retry, then the 401 in plain words.
  server.control("config", {{"tokens", {"token-three"}}});
  const std::string refused = failure_of([&] { list(client, namespaces, ""); });
  EXPECT_EQ(client.credential_plugin_runs(), 3);
  EXPECT_NE(refused.find("did not accept the credentials"), std::string::npos) << refused;
  EXPECT_EQ(refused.find("token-two"), std::string::npos) << "a token leaked into: " << refused;
}

INSTANTIATE_TEST_SUITE_P(Versions, ExecPlugin,
                         ::testing::Values("client.authentication.k8s.io/v1", "client.authentication.k8s.io/v1beta1"));

TEST(KubeClient, ExpiredExecCredentialIsFetchedAgain) {
  KubeTestServer server;
  server.control("config", {{"tokens", {"fresh"}}});
  std::ofstream(server.file("token")) << "fresh";
  Client client(server.access(server.exec_user("client.authentication.k8s.io/v1beta1",
                                         "      - {name: TEST_EXPIRY, value: '2001-01-01T00:00:00Z'}\n")));
  list(client, resource_type("v1", "Namespace"), "");
  list(client, resource_type("v1", "Namespace"), "");
  EXPECT_EQ(client.credential_plugin_runs(), 2);
}

// gke-gcloud-auth-plugin's tokens live an hour: one run serves every request of every
// thread meanwhile (the others wait for the first run's answer, they do not start their own),
// and every client of the process (submit's cluster check and submit itself), as in client-go.
TEST(KubeClient, OneExecCredentialServesEveryThreadAndClientUntilItExpires) {
  KubeTestServer server;
  server.control("config", {{"tokens", {"hour-token"}}});
  std::ofstream(server.file("token")) << "hour-token";
  const std::string in_an_hour = format_rfc3339_seconds(SystemClock::now() + std::chrono::hours(1));
  const std::string user = server.exec_user("client.authentication.k8s.io/v1",
                                     "      - {name: TEST_EXPIRY, value: '" + in_an_hour + "'}\n");
  Client client(server.access(user));
  std::vector<std::thread> threads;
  std::atomic<int> listed{0};
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&] {
      for (int j = 0; j < 3; ++j)
        if (list(client, resource_type("v1", "Namespace"), "").contains("items")) ++listed;
    });
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(listed.load(), 24);
  Client second(server.access(user));
  list(second, resource_type("v1", "Namespace"), "");
  EXPECT_EQ(client.credential_plugin_runs(), 1);
  EXPECT_EQ(server.read(server.file("runs")), "run\n");  // the plugin's own count
}

TEST(KubeClient, ServerSideApplyCreatesThenUpdatesAndReportsConflicts) {
  KubeTestServer server;
  Client client(server.access());
  const json ns = {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "team"}}}};
  EXPECT_EQ(server_side_apply(client, ns)["metadata"]["name"], "team");
  json map = config_map("settings", {{"a", "1"}});
  map["metadata"]["namespace"] = "team";
  EXPECT_EQ(server_side_apply(client, map)["data"], json::parse(R"({"a": "1"})"));
  map["data"] = {{"a", "2"}, {"b", "3"}};
  server_side_apply(client, map);
  const auto stored = get(client, resource_type("v1", "ConfigMap"), "team", "settings");
  ASSERT_TRUE(stored);
  EXPECT_EQ((*stored)["data"], json::parse(R"({"a": "2", "b": "3"})"));

  // Another manager changing a field gkebuild owns is a conflict, unless forced.
  map["data"] = {{"a", "9"}};
  ApplyOptions other;
  other.field_manager = "kubectl";
  const std::string conflict = failure_of([&] { server_side_apply(client, map, other); });
  EXPECT_NE(conflict.find("apply ConfigMap team/settings: conflict"), std::string::npos) << conflict;
  EXPECT_NE(conflict.find(".data.a: conflict with \"gkebuild\""), std::string::npos) << conflict;
  other.force = true;
  other.dry_run = true;
  EXPECT_EQ(server_side_apply(client, map, other)["data"]["a"], "9");
  EXPECT_EQ((*get(client, resource_type("v1", "ConfigMap"), "team", "settings"))["data"]["a"], "2");
  other.dry_run = false;
  server_side_apply(client, map, other);
  EXPECT_EQ((*get(client, resource_type("v1", "ConfigMap"), "team", "settings"))["data"]["a"], "9");
}

TEST(KubeClient, CreateJobListItsPodsAndEventsThenDelete) {
  KubeTestServer server;
  Client client(server.access());
  const json created = create(client, test_job("train-"));
  const std::string name = created["metadata"]["name"];
  EXPECT_TRUE(name.starts_with("train-") && name.size() > 6) << name;
  json again = test_job(name);
  const std::string exists = failure_of([&] { create(client, again); });
  EXPECT_NE(exists.find("create Job default/" + name + ": it already exists"), std::string::npos) << exists;
  EXPECT_NE(exists.find("reason: AlreadyExists"), std::string::npos) << exists;
  EXPECT_TRUE(create(client, test_job("dry-"), true)["metadata"]["name"].get<std::string>().starts_with("dry-"));
  EXPECT_EQ(list(client, resource_type("batch/v1", "Job"), "default")["items"].size(), 1u);

  ListOptions by_job;
  by_job.label_selector = "job-name=" + name;
  const json pods = list(client, resource_type("v1", "Pod"), "default", by_job)["items"];
  ASSERT_EQ(pods.size(), 1u);
  const std::string pod = pods[0]["metadata"]["name"];
  std::vector<std::string> reasons;
  for (const auto& event : events_for(client, "default", "Pod", pod)) reasons.push_back(event.reason);
  std::sort(reasons.begin(), reasons.end());  // both happened within one second
  EXPECT_EQ(reasons, (std::vector<std::string>{"FailedScheduling", "TriggeredScaleUp"}));

  EXPECT_TRUE(remove(client, resource_type("batch/v1", "Job"), "default", name, Propagation::Background));
  EXPECT_TRUE(list(client, resource_type("v1", "Pod"), "default", by_job)["items"].empty());
  EXPECT_FALSE(remove(client, resource_type("batch/v1", "Job"), "default", name));

  const std::string orphaned = create(client, test_job("keep-"))["metadata"]["name"];
  remove(client, resource_type("batch/v1", "Job"), "default", orphaned, Propagation::Orphan);
  by_job.label_selector = "job-name=" + orphaned;
  EXPECT_EQ(list(client, resource_type("v1", "Pod"), "default", by_job)["items"].size(), 1u);

  json elsewhere = test_job("lost-");
  elsewhere["metadata"]["namespace"] = "absent";
  EXPECT_NE(failure_of([&] { create(client, elsewhere); }).find("not found"), std::string::npos);
}

TEST(KubeClient, ForbiddenAndInvalidAreExplainedWithoutSecretValues) {
  KubeTestServer server;
  server.control("config", {{"forbid", {"create/secrets"}}});
  Client client(server.access());
  const json secret = {{"apiVersion", "v1"}, {"kind", "Secret"}, {"metadata", {{"name", "pull"}}},
                       {"stringData", {{"password", "hunter2-very-secret"}}}};
  const std::string forbidden = failure_of([&] { create(client, secret); });
  EXPECT_NE(forbidden.find("create Secret default/pull: forbidden: your account lacks the permission"),
            std::string::npos) << forbidden;
  EXPECT_NE(forbidden.find("cannot create resource \"secrets\""), std::string::npos) << forbidden;
  EXPECT_EQ(forbidden.find("hunter2"), std::string::npos) << forbidden;

  const std::string invalid = failure_of([&] { create(client, test_job("bad-", "Always")); });
  EXPECT_NE(invalid.find("the cluster rejected the object"), std::string::npos) << invalid;
  EXPECT_NE(invalid.find("- spec.template.spec.restartPolicy: Unsupported value: \"Always\""), std::string::npos)
      << invalid;
  EXPECT_NE(failure_of([&] { server_side_apply(client, config_map("Not_A_Name", json::object())); }).find("metadata.name"),
            std::string::npos);
}

}  // namespace
}  // namespace gkebuild::kube
