// kubectl, a real client, against the Kubernetes test server (a stand-in we wrote, hence the
// fake-server label): discovery, server-side apply with its conflicts, get --watch, logs
// --follow and delete behave as they do against a real API server. And the contract check the
// server applies to every exchange (api_contract.py) catches what it is meant to.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "base/http_client.h"
#include "common/run.h"
#include "test_server.h"

namespace gkebuild {
namespace {

using nlohmann::json;
using testing::CommandResult;
using testing::KubeTestServer;
using testing::run_command;
using testing::shell_quoted;

class KubectlTest : public ::testing::Test {
 protected:
  explicit KubectlTest(const std::string& version = "") : server(version) {}

  CommandResult kubectl(const std::string& args) {
    return run_command("timeout 30 kubectl --kubeconfig " + shell_quoted(kubeconfig.string()) + " --cache-dir " +
                       shell_quoted(server.file("kube-cache").string()) + " " + args);
  }

  std::string write(const std::string& name, const std::string& text) {
    const auto path = server.file(name);
    std::ofstream(path) << text;
    return shell_quoted(path.string());
  }

  static std::string job(const std::string& name, const std::string& image) {
    return "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: " + name +
           "\n  labels: {gkebuild.io/project: demo}\nspec:\n  backoffLimit: 0\n  template:\n    spec:\n"
           "      restartPolicy: Never\n      containers:\n      - name: main\n        image: " + image +
           "\n        command: [echo, hi]\n";
  }

  KubeTestServer server;
  // kubectl as a user runs it: a client certificate from the kubeconfig, its own discovery cache.
  std::filesystem::path kubeconfig =
      server.kubeconfig("    client-certificate: client.crt\n    client-key: client.key\n");
};

TEST_F(KubectlTest, ServerSideApplyCreatesUpdatesAndReportsConflicts) {
  auto created = kubectl("apply --server-side -f " + write("job.yaml", job("train", "busybox:1")));
  ASSERT_EQ(created.exit_code, 0) << created.all();
  EXPECT_EQ(created.out, "job.batch/train serverside-applied\n");

  auto again = kubectl("apply --server-side -f " + write("job.yaml", job("train", "busybox:2")));
  ASSERT_EQ(again.exit_code, 0) << again.all();
  auto image = kubectl("get job train -o jsonpath={.spec.template.spec.containers[0].image}");
  EXPECT_EQ(image.out, "busybox:2");
  // The label key has a dot and a slash of its own: it stays one key.
  auto label = kubectl("get job train -o jsonpath={.metadata.labels}");
  EXPECT_EQ(json::parse(label.out), json({{"gkebuild.io/project", "demo"}})) << label.all();
  auto managers = kubectl("get job train --show-managed-fields -o jsonpath={.metadata.managedFields[*].manager}");
  EXPECT_EQ(managers.out, "kubectl");

  // Another manager setting the same field: refused with the conflict named, then forced.
  auto conflict = kubectl("apply --server-side --field-manager other -f " + write("job.yaml", job("train", "busybox:3")));
  EXPECT_NE(conflict.exit_code, 0);
  EXPECT_NE(conflict.err.find("conflict"), std::string::npos) << conflict.all();
  EXPECT_NE(conflict.err.find("kubectl"), std::string::npos) << conflict.all();
  auto forced = kubectl("apply --server-side --force-conflicts --field-manager other -f " +
                        write("job.yaml", job("train", "busybox:3")));
  EXPECT_EQ(forced.exit_code, 0) << forced.all();
  EXPECT_EQ(kubectl("get job train -o jsonpath={.spec.template.spec.containers[0].image}").out, "busybox:3");
}

TEST_F(KubectlTest, WatchLogsAndDeleteFollowTheJob) {
  ASSERT_EQ(kubectl("apply --server-side -f " + write("job.yaml", job("probe", "busybox:1"))).exit_code, 0);
  CommandResult watched, followed;
  std::thread watcher([&] { watched = kubectl("get pods --watch --request-timeout=4s -o name"); });
  for (int i = 0; i < 200 && !server.control("stats")["requests"].contains("watch pods"); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  server.control("job", {{"namespace", "default"}, {"name", "probe"}, {"phase", "running"}});
  server.control("log", {{"namespace", "default"}, {"job", "probe"}, {"lines", {"step 1", "step 2"}}});
  std::thread follower([&] { followed = kubectl("logs --follow job/probe"); });
  std::this_thread::sleep_for(std::chrono::milliseconds(800));
  server.control("log", {{"namespace", "default"}, {"job", "probe"}, {"lines", {"done"}}});
  server.control("job", {{"namespace", "default"}, {"name", "probe"}, {"phase", "succeeded"}, {"exit_code", 0}});
  follower.join();
  watcher.join();
  EXPECT_EQ(followed.exit_code, 0) << followed.all();
  EXPECT_EQ(followed.out, "step 1\nstep 2\ndone\n");
  // One line per pod event (added, running, succeeded): the same pod each time.
  EXPECT_GE(std::count(watched.out.begin(), watched.out.end(), '\n'), 3) << watched.all();
  EXPECT_NE(watched.out.find("pod/probe-"), std::string::npos) << watched.all();
  // kubectl (Go's HTTP client) offered HTTP/2 and the server took it, as a real one does.
  const json stats = server.control("stats");
  for (const auto& connection : stats["connections"]) {
    const json& requests = connection["requests"];
    if (requests.contains("watch pods") || requests.contains("get pods/log"))
      EXPECT_EQ(connection["protocol"], "h2") << stats.dump();
  }

  auto deleted = kubectl("delete job probe");
  EXPECT_EQ(deleted.exit_code, 0) << deleted.all();
  EXPECT_EQ(deleted.out, "job.batch \"probe\" deleted\n");
  auto gone = kubectl("get job probe");
  EXPECT_NE(gone.exit_code, 0);
  EXPECT_NE(gone.err.find("NotFound"), std::string::npos) << gone.all();
}

class KubectlOlderReleaseTest : public KubectlTest {
 protected:
  KubectlOlderReleaseTest() : KubectlTest("1.30.0") {}
};

TEST_F(KubectlOlderReleaseTest, DiscoveryAndApplyAgainstA130Server) {
  auto version = kubectl("version -o json");
  EXPECT_EQ(json::parse(version.out)["serverVersion"]["gitVersion"], "v1.30.0") << version.all();
  auto created = kubectl("apply --server-side -f " + write("job.yaml", job("old", "busybox:1")));
  EXPECT_EQ(created.exit_code, 0) << created.all();
  auto resources = kubectl("api-resources --api-group=batch -o name");
  EXPECT_NE(resources.out.find("jobs.batch"), std::string::npos) << resources.all();
}

// The check every test relies on: a request the documents do not allow and an answer with a
// field the schemas do not have are both recorded.
TEST(KubeTestServerContract, AnUndeclaredParameterAndAnUnknownFieldAreViolations) {
  KubeTestServer server;
  HttpClient http(HttpClientOptions{.tls = {.ca_pem = server.ca_pem()}});
  HttpRequest list;
  list.url = server.server() + "/api/v1/namespaces/default/pods?watchNow=true";
  http.send(list);
  HttpRequest apply;
  apply.method = "PATCH";
  apply.url = server.server() + "/api/v1/namespaces/default/configmaps/c?fieldManager=t";
  apply.headers.push_back("Content-Type: application/apply-patch+yaml");
  apply.body = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"dat":{"a":"b"}})";
  http.send(apply);
  const auto violations = server.contract_violations(/*clear=*/true);
  ASSERT_EQ(violations.size(), 3u) << ::testing::PrintToString(violations);
  EXPECT_NE(violations[0].find("query parameter 'watchNow' is not declared"), std::string::npos) << violations[0];
  EXPECT_NE(violations[1].find("request PATCH /api/v1/namespaces/default/configmaps/c"), std::string::npos);
  EXPECT_NE(violations[1].find("'dat' was unexpected"), std::string::npos) << violations[1];
  // The server keeps the unknown field (it prunes nothing), so its answer breaks the schema too.
  EXPECT_NE(violations[2].find("response 201"), std::string::npos) << violations[2];
}

}  // namespace
}  // namespace gkebuild
