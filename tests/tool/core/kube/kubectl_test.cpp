// kubectl, a real client, against the Kubernetes test server (a stand-in we wrote, hence the
// fake-server label): discovery, server-side apply with its conflicts, get --watch, logs
// --follow and delete behave as they do against a real API server. And the contract check the
// server applies to every exchange (api_contract.py) catches what it is meant to.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "base/http_client.h"
#include "test_server.h"
#include "tests/common/run.h"

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

// A Deployment whose first container is `image` (none if empty) with env FROM=`from` (none if
// empty); `extra` adds containers.
std::string deployment(const std::string& image, const std::string& from, const std::string& extra = "") {
  return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n" +
         std::string(from.empty() ? "" : "  labels: {gkebuild.io/project: demo}\n") +
         "spec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n"
         "    spec:\n      containers:\n      - name: main\n" +
         (image.empty() ? "" : "        image: " + image + "\n") +
         (from.empty() ? "" : "        env: [{name: FROM, value: " + from + "}]\n") + extra;
}

TEST_F(KubectlTest, ServerSideApplyCreatesUpdatesAndReportsConflicts) {
  auto created = kubectl("apply --server-side -f " + write("job.yaml", job("train", "busybox:1")));
  ASSERT_EQ(created.exit_code, 0) << created.all();
  EXPECT_EQ(created.out, "job.batch/train serverside-applied\n");
  // The label key has a dot and a slash of its own: it stays one key.
  auto label = kubectl("get job train -o jsonpath={.metadata.labels}");
  EXPECT_EQ(json::parse(label.out), json({{"gkebuild.io/project", "demo"}})) << label.all();
  auto managers = kubectl("get job train --show-managed-fields -o jsonpath={.metadata.managedFields[*].manager}");
  EXPECT_EQ(managers.out, "kubectl");

  auto web = kubectl("apply --server-side -f " + write("web.yaml", deployment("nginx:1", "kubectl")));
  ASSERT_EQ(web.exit_code, 0) << web.all();
  // Another manager setting the same field: refused with the conflict named by its list-map path.
  auto conflict = kubectl("apply --server-side --field-manager other -f " +
                          write("web.yaml", deployment("nginx:2", "kubectl")));
  EXPECT_NE(conflict.exit_code, 0);
  EXPECT_NE(conflict.err.find("conflict with \"kubectl\": .spec.template.spec.containers[name=\"main\"].image"),
            std::string::npos) << conflict.all();
  auto forced = kubectl("apply --server-side --force-conflicts --field-manager other -f " +
                        write("web.yaml", deployment("nginx:2", "kubectl")));
  EXPECT_EQ(forced.exit_code, 0) << forced.all();
  EXPECT_EQ(kubectl("get deployment web -o jsonpath={.spec.template.spec.containers[0].image}").out, "nginx:2");
}

// A field set by a create belongs to its manager as an Update: applying another value conflicts,
// named as the API server names an Update manager ("kubectl-create" using v1).
TEST_F(KubectlTest, ApplyConflictsWithTheManagerThatCreated) {
  const std::string config = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {mode: ";
  auto created = kubectl("create -f " + write("settings.yaml", config + "fast}\n"));
  ASSERT_EQ(created.exit_code, 0) << created.all();
  auto conflict = kubectl("apply --server-side -f " + write("settings.yaml", config + "slow}\n"));
  EXPECT_NE(conflict.exit_code, 0);
  EXPECT_NE(conflict.err.find("Apply failed with 1 conflict: conflict with \"kubectl-create\" using v1: .data.mode"),
            std::string::npos) << conflict.all();
  auto managers = kubectl("get configmap settings --show-managed-fields -o jsonpath={.metadata.managedFields[*].operation}");
  EXPECT_EQ(managers.out, "Update");
}

// Lists of type "map" merge by their keys: a second manager adds a container and an env var
// beside the first manager's, and each manager's managedFields name the items by key.
TEST_F(KubectlTest, ServerSideApplyMergesListMapsByKey) {
  ASSERT_EQ(kubectl("apply --server-side -f " + write("web.yaml", deployment("nginx:1", "kubectl"))).exit_code, 0);
  const std::string sidecar = "      - name: sidecar\n        image: busybox:1\n        ports: [{containerPort: 80}]\n";
  auto merged = kubectl("apply --server-side --field-manager other -f " +
                        write("web.yaml", deployment("", "kubectl", sidecar)));
  ASSERT_EQ(merged.exit_code, 0) << merged.all();
  EXPECT_EQ(kubectl("get deployment web -o jsonpath={.spec.template.spec.containers[*].name}").out, "main sidecar");
  EXPECT_EQ(kubectl("get deployment web -o jsonpath={.spec.template.spec.containers[0].image}").out, "nginx:1");
  // Defaulted on the way in: the port's protocol, the image pull policy by tag.
  EXPECT_EQ(kubectl("get deployment web -o jsonpath={.spec.template.spec.containers[1].ports[0].protocol}").out, "TCP");
  EXPECT_EQ(kubectl("get deployment web -o jsonpath={.spec.template.spec.containers[1].imagePullPolicy}").out,
            "IfNotPresent");
  auto fields = kubectl("get deployment web --show-managed-fields -o json");
  ASSERT_EQ(fields.exit_code, 0) << fields.all();
  const json object = json::parse(fields.out);
  json other;
  for (const auto& entry : object["metadata"]["managedFields"])
    if (entry["manager"] == "other") other = entry["fieldsV1"]["f:spec"]["f:template"]["f:spec"]["f:containers"];
  ASSERT_TRUE(other.contains("k:{\"name\":\"sidecar\"}")) << fields.out;
  EXPECT_TRUE(other["k:{\"name\":\"sidecar\"}"]["f:ports"].contains("k:{\"containerPort\":80,\"protocol\":\"TCP\"}"));
  // Both managers set FROM=kubectl on main: they share it, and neither owns main's image but kubectl.
  EXPECT_TRUE(other["k:{\"name\":\"main\"}"]["f:env"].contains("k:{\"name\":\"FROM\"}")) << other.dump();
  EXPECT_FALSE(other["k:{\"name\":\"main\"}"].contains("f:image")) << other.dump();
  // The second manager stops setting its container, the env var and the label: the container,
  // its alone, goes; the var and the label stay (kubectl owns them too).
  auto dropped = kubectl("apply --server-side --field-manager other -f " + write("web.yaml", deployment("", "")));
  ASSERT_EQ(dropped.exit_code, 0) << dropped.all();
  EXPECT_EQ(kubectl("get deployment web -o jsonpath={.spec.template.spec.containers[*].name}").out, "main");
  EXPECT_EQ(kubectl("get deployment web -o jsonpath={.spec.template.spec.containers[0].env[0].name}").out, "FROM");
  EXPECT_EQ(kubectl("get deployment web -o jsonpath={.metadata.labels}").out, R"({"gkebuild.io/project":"demo"})");
}

// A list of type "set" (metadata.finalizers) unites what two managers apply, each owning its
// values (v:"..."); an atomic list (tolerations) is one field: another manager's list conflicts.
TEST_F(KubectlTest, SetListsUniteAndAtomicListsConflictWhole) {
  const auto settings = [](const std::string& finalizer) {
    return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, finalizers: [" + finalizer + "]}\n";
  };
  ASSERT_EQ(kubectl("apply --server-side -f " + write("a.yaml", settings("example.com/a"))).exit_code, 0);
  auto second = kubectl("apply --server-side --field-manager other -f " + write("b.yaml", settings("example.com/b")));
  ASSERT_EQ(second.exit_code, 0) << second.all();
  EXPECT_EQ(kubectl("get configmap settings -o jsonpath={.metadata.finalizers}").out,
            R"(["example.com/a","example.com/b"])");
  auto fields = kubectl("get configmap settings --show-managed-fields -o jsonpath={.metadata.managedFields[1].fieldsV1}");
  EXPECT_EQ(json::parse(fields.out), json::parse(R"({"f:metadata":{"f:finalizers":{"v:\"example.com/b\"":{}}}})"))
      << fields.all();

  const auto web = [](const std::string& key) {
    std::string text = deployment("nginx:1", "kubectl");
    return text.insert(text.find("      containers:"), "      tolerations: [{key: " + key + ", operator: Exists}]\n");
  };
  ASSERT_EQ(kubectl("apply --server-side -f " + write("web.yaml", web("spot"))).exit_code, 0);
  auto conflict = kubectl("apply --server-side --field-manager other -f " + write("web.yaml", web("gpu")));
  EXPECT_NE(conflict.err.find("conflict with \"kubectl\": .spec.template.spec.tolerations"), std::string::npos)
      << conflict.all();
}

// A Job's pod template cannot change once the Job exists (unless it is suspended and never
// started, and then only its scheduling directives): 422 Invalid as kubectl prints it.
TEST_F(KubectlTest, AChangedJobTemplateIsRefusedAsImmutable) {
  ASSERT_EQ(kubectl("apply --server-side -f " + write("job.yaml", job("train", "busybox:1"))).exit_code, 0);
  auto changed = kubectl("apply --server-side -f " + write("job.yaml", job("train", "busybox:2")));
  EXPECT_EQ(changed.exit_code, 1);
  EXPECT_EQ(changed.err, "The Job \"train\" is invalid: spec.template: Invalid value: core.PodTemplateSpec{...}: "
                         "field is immutable\n");
  EXPECT_EQ(kubectl("get job train -o jsonpath={.spec.template.spec.containers[0].image}").out, "busybox:1");
  // What the API server filled in: the Job's and the pod template's defaults, the generated selector.
  auto got = kubectl("get job train -o json");
  ASSERT_EQ(got.exit_code, 0) << got.all();
  const auto spec = json::parse(got.out)["spec"];
  EXPECT_EQ(spec["completions"], 1);
  EXPECT_EQ(spec["parallelism"], 1);
  EXPECT_EQ(spec["completionMode"], "NonIndexed");
  EXPECT_EQ(spec["suspend"], false);
  EXPECT_EQ(spec["template"]["spec"]["dnsPolicy"], "ClusterFirst");
  EXPECT_EQ(spec["template"]["spec"]["schedulerName"], "default-scheduler");
  EXPECT_EQ(spec["template"]["spec"]["containers"][0]["terminationMessagePath"], "/dev/termination-log");
  EXPECT_TRUE(spec["selector"]["matchLabels"].contains("batch.kubernetes.io/controller-uid")) << spec.dump();

  // The Job's own labels may change.
  std::string relabelled = job("train", "busybox:1");
  relabelled.replace(relabelled.find("{gkebuild.io/project: demo}"), 27, "{gkebuild.io/project: demo, stage: two}");
  auto labelled = kubectl("apply --server-side -f " + write("job.yaml", relabelled));
  EXPECT_EQ(labelled.exit_code, 0) << labelled.all();

  // A suspended Job that never ran may change its template's scheduling directives (what Kueue
  // does on admission), and nothing else.
  std::string suspended = job("held", "busybox:1");
  suspended.replace(suspended.find("  backoffLimit: 0\n"), 17, "  backoffLimit: 0\n  suspend: true\n");
  ASSERT_EQ(kubectl("apply --server-side -f " + write("held.yaml", suspended)).exit_code, 0);
  std::string placed = suspended;
  placed.replace(placed.find("      restartPolicy: Never\n"), 26,
                 "      restartPolicy: Never\n      nodeSelector: {cloud.google.com/gke-accelerator: nvidia-l4}\n");
  auto moved = kubectl("apply --server-side -f " + write("held.yaml", placed));
  EXPECT_EQ(moved.exit_code, 0) << moved.all();
  std::string other_image = placed;
  other_image.replace(other_image.find("busybox:1"), 9, "busybox:2");
  auto refused = kubectl("apply --server-side -f " + write("held.yaml", other_image));
  EXPECT_NE(refused.err.find("spec.template: Invalid value"), std::string::npos) << refused.all();
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

// kubectl wait reads the Job controller's conditions: a Job whose only pod fails with backoffLimit 0
// meets "failed"; kubectl describe shows the controller's events.
TEST_F(KubectlTest, WaitSeesTheJobControllersConditions) {
  ASSERT_EQ(kubectl("apply --server-side -f " + write("job.yaml", job("once", "busybox:1"))).exit_code, 0);
  CommandResult waited;
  std::thread waiter([&] { waited = kubectl("wait --for=condition=failed job/once --timeout=20s"); });
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  server.control("job", {{"namespace", "default"}, {"name", "once"}, {"phase", "failed"}, {"exit_code", 1}});
  waiter.join();
  EXPECT_EQ(waited.exit_code, 0) << waited.all();
  EXPECT_EQ(waited.out, "job.batch/once condition met\n");
  EXPECT_EQ(kubectl("get job once -o " + shell_quoted("jsonpath={.status.conditions[?(@.type==\"Failed\")].reason}")).out,
            "BackoffLimitExceeded");
  auto described = kubectl("describe job once");
  EXPECT_NE(described.out.find("BackoffLimitExceeded"), std::string::npos) << described.all();
  EXPECT_NE(described.out.find("Created pod: once-"), std::string::npos) << described.all();
}

// The log options kubectl sends: -c (required with two containers), --tail, --limit-bytes,
// --timestamps, --previous (the instance before the container's restart).
TEST_F(KubectlTest, LogOptionsPickTheContainerAndTheLines) {
  const std::string two = job("pair", "busybox:1") + "      - name: sidecar\n        image: busybox:1\n";
  ASSERT_EQ(kubectl("apply --server-side -f " + write("pair.yaml", two)).exit_code, 0);
  server.control("job", {{"namespace", "default"}, {"name", "pair"}, {"phase", "running"}});
  const std::string pod = kubectl("get pods -l job-name=pair -o jsonpath={.items[0].metadata.name}").out;
  ASSERT_FALSE(pod.empty());
  server.control("log", {{"namespace", "default"}, {"pod", pod}, {"container", "main"}, {"lines", {"m1", "m2", "m3"}}});
  server.control("log", {{"namespace", "default"}, {"pod", pod}, {"container", "sidecar"}, {"lines", {"s1"}}});

  // kubectl picks the first container itself; a client that names none is refused.
  auto unnamed = kubectl("logs " + pod);
  EXPECT_EQ(unnamed.out, "m1\nm2\nm3\n");
  EXPECT_NE(unnamed.err.find("Defaulted container \"main\" out of: main, sidecar"), std::string::npos) << unnamed.all();
  HttpClient http(HttpClientOptions{.tls = {.ca_pem = server.ca_pem()}});
  const auto refused = http.send({"GET", server.server() + "/api/v1/namespaces/default/pods/" + pod + "/log"});
  EXPECT_EQ(refused.status, 400);
  EXPECT_NE(refused.body.find("a container name must be specified for pod " + pod + ", choose one of: [main sidecar]"),
            std::string::npos) << refused.body;
  EXPECT_EQ(kubectl("logs " + pod + " -c sidecar").out, "s1\n");
  EXPECT_EQ(kubectl("logs " + pod + " -c main --tail=2").out, "m2\nm3\n");
  EXPECT_EQ(kubectl("logs " + pod + " -c main --limit-bytes=4").out, "m1\nm");
  const auto stamped = kubectl("logs " + pod + " -c main --tail=1 --timestamps").out;
  EXPECT_TRUE(stamped.ends_with("Z m3\n")) << stamped;

  auto none = kubectl("logs " + pod + " -c main --previous");
  EXPECT_NE(none.exit_code, 0);
  EXPECT_NE(none.err.find("previous terminated container \"main\" in pod \"" + pod + "\" not found"),
            std::string::npos) << none.all();
  server.control("restart", {{"namespace", "default"}, {"pod", pod}, {"exit_code", 2}});
  server.control("log", {{"namespace", "default"}, {"pod", pod}, {"container", "main"}, {"lines", {"again"}}});
  EXPECT_EQ(kubectl("logs " + pod + " -c main --previous").out, "m1\nm2\nm3\n");
  EXPECT_EQ(kubectl("logs " + pod + " -c main").out, "again\n");
  EXPECT_EQ(kubectl("get pod " + pod + " -o jsonpath={.status.containerStatuses[0].restartCount}").out, "1");
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

namespace gkebuild {
namespace {

// Secrets as the API server treats them (secret_objects.py), through kubectl: data is base64,
// stringData is merged into it and never stored, keys are config keys, type never changes.
TEST_F(KubectlTest, SecretsKeepDataAsTheApiServerDoes) {
  const std::string text = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: mixed\n";
  auto created = kubectl("apply --server-side -f " +
                         write("tok.yaml", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: tok\nstringData: {HF_TOKEN: abc}\n"));
  ASSERT_EQ(created.exit_code, 0) << created.all();
  EXPECT_EQ(kubectl("get secret tok -o jsonpath={.type}/{.data.HF_TOKEN}").out, "Opaque/YWJj");
  auto applied = kubectl("apply --server-side -f " +
                         write("mixed.yaml", text + "data: {A: eA==}\nstringData: {B: plain, A: wins}\n"));
  ASSERT_EQ(applied.exit_code, 0) << applied.all();
  auto stored = json::parse(kubectl("get secret mixed -o json").out);
  EXPECT_EQ(stored["data"], json({{"A", "d2lucw=="}, {"B", "cGxhaW4="}}));
  EXPECT_FALSE(stored.contains("stringData"));
  auto bad_key = kubectl("apply --server-side -f " + write("key.yaml", text + "data: {'bad key': eA==}\n"));
  EXPECT_NE(bad_key.exit_code, 0);
  EXPECT_NE(bad_key.err.find("a valid config key must consist of alphanumeric characters"), std::string::npos)
      << bad_key.err;
  auto bad_data = kubectl("apply --server-side -f " + write("data.yaml", text + "data: {A: 'not base64!'}\n"));
  EXPECT_NE(bad_data.exit_code, 0);
  EXPECT_NE(bad_data.err.find("illegal base64 data"), std::string::npos) << bad_data.err;
  auto retyped = kubectl("apply --server-side -f " + write("type.yaml", text + "type: kubernetes.io/basic-auth\n"));
  EXPECT_NE(retyped.exit_code, 0);
  EXPECT_NE(retyped.err.find("field is immutable"), std::string::npos) << retyped.err;
}

// What gkebuild creates for an in-cluster controller in a run's namespace: a ServiceAccount, a
// Role and a RoleBinding (rbac.authorization.k8s.io/v1), applied, read and deleted through
// kubectl; every exchange holds to the contract (checked when the server goes).
TEST_F(KubectlTest, ServiceAccountRoleAndRoleBindingAreServed) {
  const std::string objects =
      "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: controller, labels: {gkebuild.io/run: r1}}\n---\n"
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: controller}\nrules:\n"
      "- {apiGroups: [batch], resources: [jobs], verbs: [get, list, watch, create, delete]}\n"
      "- {apiGroups: [''], resources: [pods, pods/log], verbs: [get, list, watch]}\n---\n"
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: controller}\n"
      "subjects: [{kind: ServiceAccount, name: controller, namespace: default}]\n"
      "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: controller}\n";
  const auto file = write("controller.yaml", objects);
  auto applied = kubectl("apply --server-side -f " + file);
  ASSERT_EQ(applied.exit_code, 0) << applied.all();
  EXPECT_NE(applied.out.find("role.rbac.authorization.k8s.io/controller serverside-applied"), std::string::npos)
      << applied.all();
  auto listed = kubectl("get serviceaccounts,roles,rolebindings -o name");
  EXPECT_EQ(listed.out, "serviceaccount/controller\nrole.rbac.authorization.k8s.io/controller\n"
                        "rolebinding.rbac.authorization.k8s.io/controller\n") << listed.all();
  EXPECT_EQ(kubectl("get sa controller -o jsonpath={.metadata.labels}").out, R"({"gkebuild.io/run":"r1"})");
  EXPECT_EQ(kubectl("get role controller -o jsonpath={.rules[1].resources}").out, R"(["pods","pods/log"])");
  EXPECT_EQ(kubectl("get rolebinding controller --show-managed-fields "
                    "-o jsonpath={.metadata.managedFields[0].manager}/{.roleRef.kind}/{.subjects[0].name}").out,
            "kubectl/Role/controller");
  // Applying again changes nothing and conflicts with nothing.
  EXPECT_EQ(kubectl("apply --server-side -f " + file).exit_code, 0);
  auto deleted = kubectl("delete -f " + file);
  ASSERT_EQ(deleted.exit_code, 0) << deleted.all();
  EXPECT_EQ(kubectl("get serviceaccounts,roles,rolebindings -o name").out, "");
}

// A Role whose rule gives its verbs as one string breaks the RBAC schema: the check catches it.
TEST(KubeTestServerContract, ABadRoleIsAViolation) {
  KubeTestServer server;
  HttpClient http(HttpClientOptions{.tls = {.ca_pem = server.ca_pem()}});
  HttpRequest apply;
  apply.method = "PATCH";
  apply.url = server.server() + "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles/r?fieldManager=t";
  apply.headers.push_back("Content-Type: application/apply-patch+yaml");
  apply.body = R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"r"},)"
               R"("rules":[{"verbs":"get"}]})";
  http.send(apply);
  const auto violations = server.contract_violations(/*clear=*/true);
  ASSERT_FALSE(violations.empty());
  EXPECT_NE(violations[0].find("request PATCH /apis/rbac.authorization.k8s.io/v1/namespaces/default/roles/r: "
                               "io.k8s.api.rbac.v1.Role at rules/0/verbs: 'get' is not of type 'array'"),
            std::string::npos) << violations[0];
}

}  // namespace
}  // namespace gkebuild
