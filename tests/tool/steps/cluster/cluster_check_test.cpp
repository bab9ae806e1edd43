// `gkebuild cluster check` and the check `submit` runs first, against the Kubernetes test
// server (tests/tool/core/kube/kube_test_server.py, a stand-in) holding node, pod and ConfigMap
// fixtures shaped as GKE shows them: a healthy pool, a GPU pool at zero, a missing taint, a
// driver installer that is not ready, a pool of the wrong accelerator.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cluster_projects.h"
#include "tests/common/run.h"
#include "tests/tool/core/kube/test_server.h"
#include "tool/core/kube/client.h"
#include "tool/core/kube/objects.h"

namespace gkebuild::testing {
namespace {

using nlohmann::json;

const std::string kCertificateUser = "    client-certificate: client.crt\n    client-key: client.key\n";

json node(const std::string& name, json labels, json taints, const std::string& gpus) {
  json allocatable = {{"cpu", "4"}, {"memory", "16Gi"}};
  if (!gpus.empty()) allocatable["nvidia.com/gpu"] = gpus;
  return {{"apiVersion", "v1"}, {"kind", "Node"},
          {"metadata", {{"name", name}, {"labels", std::move(labels)}}},
          {"spec", {{"taints", std::move(taints)}}},
          {"status", {{"allocatable", allocatable}}}};
}

json gpu_labels(const std::string& accelerator, const std::string& pool, bool spot, bool managed_driver = true) {
  json labels = {{"cloud.google.com/gke-accelerator", accelerator}, {"cloud.google.com/gke-nodepool", pool}};
  if (spot) labels["cloud.google.com/gke-spot"] = "true";
  if (managed_driver) labels["cloud.google.com/gke-gpu-driver-version"] = "default";
  return labels;
}

const json kGpuTaint = {{"key", "nvidia.com/gpu"}, {"value", "present"}, {"effect", "NoSchedule"}};
const json kSpotTaint = {{"key", "cloud.google.com/gke-spot"}, {"value", "true"}, {"effect", "NoSchedule"}};

// A kube-system pod of DaemonSet `app` on `node_name`; not ready: waiting in an init container for `reason`.
json system_pod(const std::string& app, const std::string& node_name, const std::string& reason = "") {
  json status = {{"phase", reason.empty() ? "Running" : "Pending"},
                 {"conditions", {{{"type", "Ready"}, {"status", reason.empty() ? "True" : "False"}}}}};
  if (!reason.empty())
    status["initContainerStatuses"] = {{{"name", app}, {"image", "cos-nvidia-installer:fixed"}, {"imageID", ""},
                                        {"ready", false}, {"restartCount", 3},
                                        {"state", {{"waiting", {{"reason", reason}}}}}}};
  return {{"apiVersion", "v1"}, {"kind", "Pod"},
          {"metadata", {{"name", app + "-" + node_name.substr(node_name.size() - 4)}, {"namespace", "kube-system"},
                        {"labels", {{"k8s-app", app}}}}},
          {"spec", {{"nodeName", node_name}, {"containers", {{{"name", "main"}, {"image", "pause"}}}}}},
          {"status", status}};
}

// The autoscaler's status as GKE writes it (YAML, CA 1.30 on): one node group per pool.
json autoscaler_status(const std::vector<std::tuple<std::string, int, std::string>>& groups) {
  std::string status = "time: 2026-11-23 10:00:00.000000000 +0000 UTC\nautoscalerStatus: Running\nnodeGroups:\n";
  for (const auto& [pool, max, backoff] : groups) {
    status += "- name: https://www.googleapis.com/compute/v1/projects/my-project/zones/us-central1-a/instanceGroups/"
              "gke-demo-" + pool + "-0a1b2c3d-grp\n  health:\n    status: Healthy\n    minSize: 0\n    maxSize: " +
              std::to_string(max) + "\n  scaleUp:\n    status: " + (backoff.empty() ? "NoActivity" : "Backoff") + "\n";
    if (!backoff.empty()) status += "    backoffInfo:\n      errorCode: " + backoff + "\n      errorMessage: \"" + backoff + " in us-central1-a\"\n";
  }
  return {{"apiVersion", "v1"}, {"kind", "ConfigMap"},
          {"metadata", {{"name", "cluster-autoscaler-status"}, {"namespace", "kube-system"}}},
          {"data", {{"status", status}}}};
}

void expect_has(const std::string& out, const std::string& line) {
  EXPECT_NE(out.find(line), std::string::npos) << "no line\n  " << line << "\nin\n" << out;
}

class ClusterCheck : public ::testing::Test {
 protected:
  void SetUp() override { kubeconfig = server.kubeconfig(kCertificateUser); }

  void add(const std::vector<json>& objects) {
    kube::Client client(server.access(kCertificateUser));
    for (const auto& object : objects) kube::create(client, object);
  }

  // A cluster whose admin pool runs kube-system: the usual GKE start.
  void admin_node() { add({node("gke-demo-default-pool-0001", {{"cloud.google.com/gke-nodepool", "default-pool"}}, json::array(), "")}); }

  CommandResult gkebuild(const std::string& arguments, const std::string& project) {
    const auto file = project_dir.write("gkebuild.yaml", project);
    return run_command("cd " + shell_quoted(project_dir.path().string()) + " && " + gkebuild_binary() + " " + arguments +
                       " --kubeconfig " + shell_quoted(kubeconfig.string()) + " --context test");
  }

  KubeTestServer server;
  TempDir project_dir;
  std::filesystem::path kubeconfig;
};

TEST_F(ClusterCheck, AHealthyPoolAndAPoolAtZeroThatCanScaleUp) {
  admin_node();
  add({node("gke-demo-l4-spot-0a1b-x7k2", gpu_labels("nvidia-l4", "l4-spot", true), {kGpuTaint, kSpotTaint}, "1"),
       system_pod("nvidia-gpu-device-plugin", "gke-demo-l4-spot-0a1b-x7k2"),
       autoscaler_status({{"l4-spot", 4, ""}, {"t4", 3, ""}})});
  const auto check = gkebuild("cluster check", kDerivedPools);
  EXPECT_EQ(check.exit_code, 0) << check.all();
  expect_has(check.out, "ok: nvidia-l4 (experiment a): 1 node (pool l4-spot) with 1 nvidia.com/gpu allocatable\n");
  expect_has(check.out, "ok: nvidia-tesla-t4 (experiment b): no node now; pool t4 scales from 0 up to 3 nodes\n");
  EXPECT_EQ(check.out.find("problem"), std::string::npos) << check.out;
}

// Flex-start, queued and reservation pools at zero: their Jobs select gke-flex-start (queued ones
// also gke-queued) and reservation-name, which GKE puts on the nodes it makes; a pool at zero is
// not "never schedulable".
TEST_F(ClusterCheck, FlexStartQueuedAndReservationPoolsAtZeroCanScaleUp) {
  admin_node();
  add({autoscaler_status({{"l4-flex", 4, ""}, {"h100-queued", 4, ""}, {"h100-res-h100-res", 4, ""}})});
  const auto check = gkebuild("cluster check", kScarce);
  EXPECT_EQ(check.exit_code, 0) << check.all();
  expect_has(check.out, "ok: nvidia-l4 (experiment flex): no node now; pool l4-flex scales from 0 up to 4 nodes\n");
  expect_has(check.out, "ok: nvidia-h100-80gb (experiment queued, 8 GPUs per pod): no node now; pool h100-queued scales from 0 up to 4 nodes\n");
  expect_has(check.out, "ok: nvidia-h100-80gb (experiment res, 8 GPUs per pod): no node now; pool h100-res-h100-res scales from 0 up to 4 nodes\n");
  EXPECT_EQ(check.out.find("never schedulable"), std::string::npos) << check.out;
}

// CPU-only experiments (issue 42): their Jobs select the machine type, which a node of that
// type takes (here the admin pool's), and otherwise the project's cpu-MACHINE pool at zero;
// GPU nodes, tainted, never take them.
TEST_F(ClusterCheck, CpuOnlyJobsFitAMachineOfTheirTypeOrTheirPoolAtZero) {
  add({node("gke-demo-default-pool-0001",
            {{"cloud.google.com/gke-nodepool", "default-pool"}, {"node.kubernetes.io/instance-type", "e2-standard-4"}},
            json::array(), ""),
       node("gke-demo-l4-spot-0a1b-x7k2", gpu_labels("nvidia-l4", "l4-spot", true), {kGpuTaint, kSpotTaint}, "1"),
       system_pod("nvidia-gpu-device-plugin", "gke-demo-l4-spot-0a1b-x7k2"),
       autoscaler_status({{"l4-spot", 4, ""}, {"t4", 3, ""}, {"cpu-n2-standard-8", 4, ""}})});
  const std::string project = kProjectHead + "  prep: {image: gemm}\n  big: {image: gemm, machineType: n2-standard-8}\n" +
                              "cluster:\n  gcpProject: my-project\n  location: us-central1\n";
  const auto check = gkebuild("cluster check", project);
  EXPECT_EQ(check.exit_code, 0) << check.all();
  expect_has(check.out, "ok: cpu (experiment prep): 1 node (pool default-pool)\n");
  expect_has(check.out, "ok: cpu (experiment big): no node now; pool cpu-n2-standard-8 scales from 0 up to 4 nodes\n");
  EXPECT_EQ(check.out.find("problem"), std::string::npos) << check.out;
}

TEST_F(ClusterCheck, AGpuPoolAtZeroThatCannotScale) {
  admin_node();
  add({autoscaler_status({{"l4-spot", 0, ""}, {"t4", 2, "QUOTA_EXCEEDED"}})});
  const auto check = gkebuild("cluster check", kDerivedPools);
  EXPECT_EQ(check.exit_code, 1) << check.all();
  expect_has(check.out, "never schedulable: nvidia-l4 (experiment a): pool l4-spot has autoscaling max 0: raise it");
  expect_has(check.out, "problem: nvidia-tesla-t4 (experiment b): pool t4 cannot scale up now (autoscaler backoff: "
                        "QUOTA_EXCEEDED: QUOTA_EXCEEDED in us-central1-a); ask for more GPU quota in the region");
}

TEST_F(ClusterCheck, APoolTheClusterDoesNotHave) {
  admin_node();
  add({autoscaler_status({{"l4-spot", 4, ""}})});
  const auto check = gkebuild("cluster check --experiment b", kDerivedPools);
  EXPECT_EQ(check.exit_code, 1) << check.all();
  expect_has(check.out, "never schedulable: nvidia-tesla-t4 (experiment b): no node now, and the cluster autoscaler "
                        "knows no node group for pool t4 of gkebuild.yaml: run `gkebuild cluster up`");
  EXPECT_EQ(check.out.find("nvidia-l4"), std::string::npos) << check.out;  // experiment a was not asked about
}

TEST_F(ClusterCheck, AMissingTaintAndADriverInstallerNotReady) {
  admin_node();
  add({node("gke-demo-t4-0a1b-q9w8", gpu_labels("nvidia-tesla-t4", "t4", false, false), json::array(), "0"),
       system_pod("nvidia-driver-installer", "gke-demo-t4-0a1b-q9w8", "CrashLoopBackOff"),
       system_pod("nvidia-gpu-device-plugin", "gke-demo-t4-0a1b-q9w8")});
  const auto check = gkebuild("cluster check --experiment b", kProjectHead);
  EXPECT_EQ(check.exit_code, 1) << check.all();
  expect_has(check.out, "problem: nvidia-tesla-t4 (experiment b): its nodes offer fewer than 1 allocatable "
                        "nvidia.com/gpu now (driver or device plugin not ready? see below)");
  expect_has(check.out, "problem: node gke-demo-t4-0a1b-q9w8 (nvidia-tesla-t4): nvidia-driver-installer pod "
                        "nvidia-driver-installer-q9w8 is not ready (Init:CrashLoopBackOff): kubectl -n kube-system "
                        "logs nvidia-driver-installer-q9w8 -c nvidia-driver-installer");
  expect_has(check.out, "problem: node gke-demo-t4-0a1b-q9w8 (nvidia-tesla-t4): 0 allocatable nvidia.com/gpu");
  expect_has(check.out, "problem: pool t4: GPU nodes without the nvidia.com/gpu:NoSchedule taint, so other pods land "
                        "there and keep the pool from scaling to zero: gcloud container node-pools update t4 "
                        "--node-taints=nvidia.com/gpu=present:NoSchedule");
  EXPECT_EQ(check.out.find("never schedulable"), std::string::npos) << check.out;  // it may still come up
}

TEST_F(ClusterCheck, NoDevicePluginAndNoDriverAtAll) {
  admin_node();
  add({node("gke-demo-t4-0a1b-abcd", gpu_labels("nvidia-tesla-t4", "t4", false, false), {kGpuTaint}, "")});
  const auto check = gkebuild("cluster check --experiment b", kProjectHead);
  EXPECT_EQ(check.exit_code, 1) << check.all();
  expect_has(check.out, "problem: node gke-demo-t4-0a1b-abcd (nvidia-tesla-t4): no GKE-managed driver and no "
                        "nvidia-driver-installer pod: set cluster.driverInstaller to cos or ubuntu");
  expect_has(check.out, "problem: node gke-demo-t4-0a1b-abcd (nvidia-tesla-t4): no nvidia-gpu-device-plugin pod");
}

TEST_F(ClusterCheck, APoolOfTheWrongAcceleratorAndATaintTheJobsDoNotTolerate) {
  admin_node();
  add({node("gke-demo-t4-0a1b-zzzz", gpu_labels("nvidia-tesla-t4", "t4", false), {kGpuTaint, {{"key", "team"}, {"value", "ml"}, {"effect", "NoSchedule"}}}, "1"),
       system_pod("nvidia-gpu-device-plugin", "gke-demo-t4-0a1b-zzzz")});
  const auto check = gkebuild("cluster check", kProjectHead);
  EXPECT_EQ(check.exit_code, 1) << check.all();
  expect_has(check.out, "never schedulable: nvidia-l4 (experiment a): no node pool offers nvidia-l4 and autoscaling "
                        "cannot create one: run `gkebuild cluster up` or add a pool\n");
  expect_has(check.out, "never schedulable: nvidia-tesla-t4 (experiment b): its nodes do not take the Jobs (node "
                        "gke-demo-t4-0a1b-zzzz: its taint team=ml:NoSchedule is not tolerated by the Jobs), and "
                        "autoscaling cannot make one that does");
}

TEST_F(ClusterCheck, ACordonedNodeDoesNotCount) {
  admin_node();
  json cordoned = node("gke-demo-t4-0a1b-cccc", gpu_labels("nvidia-tesla-t4", "t4", false), {kGpuTaint}, "1");
  cordoned["spec"]["unschedulable"] = true;
  add({cordoned, system_pod("nvidia-gpu-device-plugin", "gke-demo-t4-0a1b-cccc")});
  const auto check = gkebuild("cluster check --experiment b", kProjectHead);
  EXPECT_EQ(check.exit_code, 1) << check.all();
  expect_has(check.out, "never schedulable: nvidia-tesla-t4 (experiment b): its node gke-demo-t4-0a1b-cccc is cordoned "
                        "or not Ready, and autoscaling cannot make one that does");
}

TEST_F(ClusterCheck, SubmitRefusesAJobThatCouldNeverBeScheduled) {
  admin_node();
  add({node("gke-demo-t4-0a1b-zzzz", gpu_labels("nvidia-tesla-t4", "t4", false), {kGpuTaint}, "1"),
       system_pod("nvidia-gpu-device-plugin", "gke-demo-t4-0a1b-zzzz")});
  server.control("config", {{"auto", {{"step", 0.05}, {"lines", {"done"}}}}});
  const std::string image = " --image gemm=registry.test/gemm@sha256:" + std::string(64, 'a');
  auto submit = gkebuild("submit a" + image, kProjectHead);
  EXPECT_EQ(submit.exit_code, 1) << submit.all();
  EXPECT_NE(submit.err.find("gkebuild submit: error: a Job of this run could never be scheduled on context test:\n  "
                            "nvidia-l4 (experiment a): no node pool offers nvidia-l4 and autoscaling cannot create one"),
            std::string::npos) << submit.err;
  EXPECT_NE(submit.err.find("--no-check skips this check"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(project_dir / ".gkebuild" / "runs"));  // refused before a run was recorded
  // The t4 experiment schedules: submit goes on to run it.
  submit = gkebuild("submit b" + image, kProjectHead);
  EXPECT_EQ(submit.exit_code, 0) << submit.all();
  // --no-check sends the l4 Job anyway (here the test server runs it).
  submit = gkebuild("submit a --no-check" + image, kProjectHead);
  EXPECT_EQ(submit.exit_code, 0) << submit.all();
}

TEST_F(ClusterCheck, AutopilotMakesTheNodes) {
  admin_node();
  const auto check = gkebuild("cluster check", kAutopilot);
  EXPECT_EQ(check.exit_code, 0) << check.all();
  expect_has(check.out, "ok: nvidia-l4 (experiment a): Autopilot makes a node for each Job's selectors\n");
}

// An experiment with a fallback: selects its ComputeClass, whose pools GKE creates: no pool of
// gkebuild.yaml and no node is needed now, so neither check nor submit refuses it.
TEST_F(ClusterCheck, AComputeClassMakesTheNodes) {
  admin_node();
  add({autoscaler_status({})});
  const std::string project = kProjectHead + "  c: {image: gemm, accelerators: [nvidia-l4], fallback: [{accelerator: "
                                             "nvidia-tesla-t4}]}\ncluster: {gcpProject: my-project, location: us-central1}\n";
  const auto check = gkebuild("cluster check --experiment c", project);
  EXPECT_EQ(check.exit_code, 0) << check.all();
  expect_has(check.out, "ok: nvidia-l4 (experiment c): selects the ComputeClass demo-c, whose node pools GKE creates");
}

// With cluster.failover: follow the Jobs select the experiment's own accelerator, and the
// alternatives' Jobs, which the follower may create instead, are checked against their derived pools.
TEST_F(ClusterCheck, FollowedFallbackJobsRunOnDerivedPools) {
  admin_node();
  add({autoscaler_status({{"l4", 4, ""}, {"t4", 4, ""}})});
  const std::string project = kProjectHead + "  c: {image: gemm, accelerators: [nvidia-l4], fallback: [{accelerator: "
                                             "nvidia-tesla-t4, gpus: 2}]}\n"
                                             "cluster: {failover: follow, gcpProject: my-project, location: us-central1}\n";
  const auto check = gkebuild("cluster check --experiment c", project);
  EXPECT_EQ(check.exit_code, 0) << check.all();
  expect_has(check.out, "ok: nvidia-l4 (experiment c): no node now; pool l4 scales from 0 up to 4 nodes\n");
  expect_has(check.out, "ok: nvidia-tesla-t4 (experiment c (fallback), 2 GPUs per pod): no node now; pool t4 scales "
                        "from 0 up to 4 nodes\n");
  EXPECT_EQ(check.out.find("ComputeClass"), std::string::npos) << check.out;
}

TEST_F(ClusterCheck, StatusSaysWhyAPendingJobWaits) {
  // No "auto": the test server's pods stay unschedulable, with FailedScheduling and TriggeredScaleUp events.
  const std::string image = " --image gemm=registry.test/gemm@sha256:" + std::string(64, 'a');
  const auto submit = gkebuild("submit b --no-check --detach" + image, kProjectHead);
  ASSERT_EQ(submit.exit_code, 0) << submit.all();
  std::string run;
  for (const auto& entry : std::filesystem::directory_iterator(project_dir / ".gkebuild" / "runs"))
    run = entry.path().filename().string();
  auto status = gkebuild("status " + run, kProjectHead);
  EXPECT_NE(status.out.find("pending: waiting for a GPU node (scale-up: pod triggered scale-up: [{gpu-pool 0->1 (max: 4)}])"),
            std::string::npos) << status.all();
  // Then the autoscaler gives up on quota (GKE's FailedScaleUp event on the pod).
  kube::Client client(server.access(kCertificateUser));
  const auto pods = kube::list(client, kube::resource_type("v1", "Pod"), "demo");
  ASSERT_EQ(pods["items"].size(), 1u);
  const std::string pod = pods["items"][0]["metadata"]["name"];
  add({{{"apiVersion", "v1"}, {"kind", "Event"},
        {"metadata", {{"name", pod + ".quota"}, {"namespace", "demo"}}},
        {"involvedObject", {{"kind", "Pod"}, {"name", pod}, {"namespace", "demo"}}},
        {"reason", "FailedScaleUp"}, {"type", "Warning"}, {"lastTimestamp", "2099-01-01T00:00:00Z"},
        {"message", "Node scale up in zones us-central1-a associated with this pod failed: GCE quota exceeded."}}});
  status = gkebuild("status " + run, kProjectHead);
  EXPECT_NE(status.out.find("pending: waiting for a GPU node: GPU quota exceeded (scale-up: failed: Node scale up in "
                            "zones us-central1-a associated with this pod failed: GCE quota exceeded.)"),
            std::string::npos) << status.all();
}

}  // namespace
}  // namespace gkebuild::testing
