// gkebuild submit and the run commands (status, logs -f, delete) in process, against the
// in-memory cluster (fake_cluster.h): what is applied and created, in which order, what a
// refusal leaves in the record, the dry run's server check, and what the follow-up commands
// ask of the cluster and change. The binary's own runs over HTTP are submit_cluster_test's and
// run_commands_test's, against the Python test server.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <fstream>
#include <map>
#include <sstream>

#include "base/base64.h"
#include "fake_cluster.h"
#include "tests/common/leak_search.h"
#include "tests/common/temp_dir.h"
#include "tool/core/kube/api_error.h"
#include "tool/core/runrecord/run_store.h"
#include "tool/steps/plan/run_id.h"
#include "tool/steps/plan/job_needs.h"
#include "tool/submit/run_commands.h"
#include "tool/steps/plan/run_plan.h"
#include "tool/submit/submit.h"

namespace gkebuild::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

// Pinned, on a registry that cannot be found (.test is never a real domain): the image's config
// is not read, and a note says so.
constexpr const char* kPinned =
    "registry.test/info@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
constexpr const char* kNamespace = "gpu-info";  // examples/gpu-info's
constexpr const char* kResultLine =
    R"({"schema":"gkebuild.workload.v1","workload":"test","metric":"throughput","value":1.5,"unit":"TFLOP/s"})";

// Every created Job runs one pod to success, printing a line and a result line.
Script succeeds(FakeCluster& cluster) {
  return [&cluster](const json& job) -> std::vector<Change> {
    const json pod = pod_of(job, "x1", "Pending");
    cluster.set_log(pod["metadata"]["name"], {"hello", kResultLine});
    return {{running(pod, "n1")}, {terminated(pod, 0)}, {finished(job, true)}};
  };
}

class SubmitOnFake : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::copy_file(std::filesystem::path(GKEBUILD_SOURCE_ROOT) / "examples" / "gpu-info" / "gkebuild.yaml",
                               project.path() / "gkebuild.yaml");
    // Read for the context and namespace only: the fake answers for its server.
    std::ofstream(project.path() / "kubeconfig")
        << "apiVersion: v1\nkind: Config\ncurrent-context: fake\n"
           "clusters:\n- name: fake\n  cluster: {server: 'https://127.0.0.1:1'}\n"
           "users:\n- name: u\n  user: {token: t}\n"
           "contexts:\n- name: fake\n  context: {cluster: fake, user: u}\n";
    options.project_file = project.path() / "gkebuild.yaml";
    options.plan.experiment = "probe";
    options.plan.overrides.accelerators = {"nvidia-l4", "nvidia-tesla-t4"};
    options.images.given = {{"info", kPinned}};
    options.no_check = true;  // the cluster check reads nodes over HTTP
    options.kubeconfig.kubeconfig = project.path() / "kubeconfig";
    options.console.out = &out;
    options.console.err = &err;
  }

  Outcome submit() { return submit::run_submit(options, connect_to(cluster)); }

  std::filesystem::path only_run() const {
    const auto runs = runrecord::list_runs(project.path());
    EXPECT_EQ(runs.size(), 1u);
    return runs.empty() ? std::filesystem::path() : runs.front();
  }

  json run_json() const {
    std::ifstream in(only_run() / "run.json");
    return json::parse(in);
  }

  submit::RunCommandOptions run_command() {
    submit::RunCommandOptions command;
    command.project_dir = project.path();
    command.run = only_run().filename().string();
    command.kubeconfig = options.kubeconfig;
    command.console.out = &out;
    command.console.err = &err;
    out.str("");
    err.str("");
    return command;
  }

  // Where the first call starting with `prefix` came, or -1.
  long first_call(const std::string& prefix) const {
    const auto calls = cluster->calls();
    for (std::size_t i = 0; i < calls.size(); ++i)
      if (calls[i].starts_with(prefix)) return static_cast<long>(i);
    return -1;
  }

  TempDir project;
  std::shared_ptr<FakeCluster> cluster = std::make_shared<FakeCluster>();
  std::ostringstream out, err;
  submit::SubmitOptions options;
};

TEST_F(SubmitOnFake, AppliesTheRunsObjectsThenCreatesAndFollowsItsJobs) {
  cluster->script("", succeeds(*cluster));
  options.follow.max_in_flight = 1;
  ASSERT_EQ(submit(), Outcome::kSucceeded) << err.str();
  EXPECT_NE(err.str().find("queued (at most 1 Jobs in flight)"), std::string::npos) << err.str();
  EXPECT_GE(first_call("apply Namespace " + std::string(kNamespace)), 0);
  EXPECT_LT(first_call("apply Namespace"), first_call("create Job"));
  const auto jobs = cluster->objects("Job");
  ASSERT_EQ(jobs.size(), 2u);
  const std::string run_id = plan::cluster_run_id(only_run().filename().string());
  for (const auto& job : jobs) {
    EXPECT_EQ(job["metadata"]["namespace"], kNamespace);
    EXPECT_EQ(job["metadata"]["labels"]["gkebuild.io/run"], run_id);
    EXPECT_NE(job.dump().find(kPinned), std::string::npos) << "the Job runs the given image";
  }
  const json record = run_json();
  EXPECT_EQ(record["context"], "fake");
  EXPECT_FALSE(record["finished"].is_null());
  for (const auto& job : record["jobs"]) EXPECT_EQ(job["state"], "succeeded") << job.dump();
  std::ifstream results(only_run() / "results.jsonl");
  int lines = 0;
  for (std::string line; std::getline(results, line);) ++lines;
  EXPECT_EQ(lines, 2);
  EXPECT_NE(out.str().find("] hello"), std::string::npos) << out.str();
  EXPECT_NE(err.str().find("2 of 2 Jobs succeeded"), std::string::npos) << err.str();
}

TEST_F(SubmitOnFake, TheRunsSecretComesBeforeItsJobsAndIsOwnedByThem) {
  ::setenv("FAKE_RUN_TOKEN", "s3cret-value", 1);
  options.secret_env = {"FAKE_RUN_TOKEN"};
  cluster->script("", succeeds(*cluster));
  ASSERT_EQ(submit(), Outcome::kSucceeded) << err.str();
  ::unsetenv("FAKE_RUN_TOKEN");
  const auto secrets = cluster->objects("Secret");
  ASSERT_EQ(secrets.size(), 1u);
  const json& secret = secrets.front();
  EXPECT_EQ(secret["data"]["FAKE_RUN_TOKEN"], base64_encode("s3cret-value"));
  EXPECT_LT(first_call("apply Secret"), first_call("create Job"));
  std::set<std::pair<std::string, std::string>> owners, jobs;
  for (const auto& owner : secret["metadata"]["ownerReferences"])
    owners.emplace(owner["name"].get<std::string>(), owner["uid"].get<std::string>());
  for (const auto& job : cluster->objects("Job"))
    jobs.emplace(job["metadata"]["name"].get<std::string>(), job["metadata"]["uid"].get<std::string>());
  EXPECT_EQ(jobs.size(), 2u);
  EXPECT_EQ(owners, jobs);
}

// `logs -f` on a detached run with secretEnv reads the values from the run's Secret on the
// cluster (this environment no longer has them) and masks what it shows and records, every
// line of a multi-line value and its base64 form, as the submit's own follow does.
TEST_F(SubmitOnFake, LogsFollowMasksTheRunsSecret) {
  const std::string value = "-----BEGIN KEY-----\nfollow-line-one-1234\n-----END KEY-----";
  ::setenv("FAKE_RUN_TOKEN", value.c_str(), 1);
  options.secret_env = {"FAKE_RUN_TOKEN"};
  options.follow.follow = false;  // --detach
  cluster->script("", [this, value](const json& job) -> std::vector<Change> {
    const json pod = pod_of(job, "x1", "Pending");
    cluster->set_log(pod["metadata"]["name"],
                     {"key: follow-line-one-1234", "encoded: " + base64_encode(value), kResultLine});
    return {{running(pod, "n1")}, {terminated(pod, 0)}, {finished(job, true)}};
  });
  ASSERT_EQ(submit(), Outcome::kSucceeded) << err.str();
  ::unsetenv("FAKE_RUN_TOKEN");
  auto command = run_command();
  command.follow = true;
  ASSERT_EQ(submit::logs_command(command, connect_to(cluster)), Outcome::kSucceeded) << err.str();
  EXPECT_NE(out.str().find("] key: ***"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("] encoded: ***"), std::string::npos) << out.str();
  const std::vector<std::string> needles = {"follow-line-one", base64_encode(value)};
  EXPECT_EQ(text_holding("logs -f", out.str() + err.str(), needles), std::vector<std::string>());
  EXPECT_EQ(files_holding(only_run(), needles), std::vector<std::string>());
  EXPECT_GE(files_under(only_run() / "logs"), 2u);
}

// A spot GPU node of `accelerator` as GKE labels one, with a GPU to give.
json gpu_node(const std::string& name, const std::string& accelerator) {
  return {{"apiVersion", "v1"},
          {"kind", "Node"},
          {"metadata",
           {{"name", name},
            {"labels",
             {{"cloud.google.com/gke-accelerator", accelerator},
              {"cloud.google.com/gke-nodepool", name + "-pool"},
              {"cloud.google.com/gke-spot", "true"},
              {"cloud.google.com/gke-gpu-driver-version", "default"}}}}},
          {"spec", json::object()},
          {"status", {{"allocatable", {{"cpu", "4"}, {"memory", "16Gi"}, {"nvidia.com/gpu", "1"}}}}}};
}

// The cluster check reads the cluster through kube::ClusterApi (it built an HTTP client of its
// own before, so it could not run here): as `cluster check` does, and before submit.
TEST_F(SubmitOnFake, TheClusterCheckReadsTheClusterItIsGiven) {
  const auto loaded = project::load_project(options.project_file);
  const auto needs = plan::job_needs(loaded, options.plan);
  const auto bare = cluster::check_cluster_for(*cluster, loaded, needs);
  EXPECT_TRUE(bare.has_problems()) << bare.text();
  EXPECT_NE(bare.text().find("nvidia-l4"), std::string::npos) << bare.text();
  EXPECT_EQ(cluster->count_calls("list Node"), 1);
  EXPECT_EQ(cluster->count_calls("list Pod kube-system"), 1);
  EXPECT_EQ(cluster->count_calls("get ConfigMap kube-system/cluster-autoscaler-status"), 1);

  cluster->put(gpu_node("l4-1", "nvidia-l4"));
  cluster->put(gpu_node("t4-1", "nvidia-tesla-t4"));
  const auto ready = cluster::check_cluster_for(*cluster, loaded, needs);
  EXPECT_FALSE(ready.has_blocking()) << ready.text();
  EXPECT_NE(ready.text(), bare.text());

  options.no_check = false;
  cluster->script("", succeeds(*cluster));
  ASSERT_EQ(submit(), Outcome::kSucceeded) << err.str();
  EXPECT_EQ(cluster->count_calls("list Node"), 3);
  EXPECT_LT(first_call("list Node"), first_call("apply"));
}

TEST_F(SubmitOnFake, RefusedApplyCreatesNoJobAndSaysWhyInTheRecord) {
  cluster->refuse("apply Namespace", 403);
  EXPECT_THROW(submit(), kube::ApiError);
  EXPECT_EQ(cluster->count_calls("create"), 0);
  const json record = run_json();
  ASSERT_EQ(record["jobs"].size(), 2u);
  for (const auto& job : record["jobs"]) {
    EXPECT_EQ(job["state"], "failed");
    EXPECT_TRUE(job["reason"].get<std::string>().starts_with("not created: apply Namespace gpu-info")) << job.dump();
  }
}

// A server that quotes the Secret's value in its refusal: the record's reason and the error the
// CLI prints have it masked.
TEST_F(SubmitOnFake, ARefusalQuotingTheSecretIsMasked) {
  ::setenv("FAKE_RUN_TOKEN", "s3cret-in-a-refusal", 1);
  options.secret_env = {"FAKE_RUN_TOKEN"};
  cluster->refuse("apply Secret", 422, "data[FAKE_RUN_TOKEN]: Invalid value: \"s3cret-in-a-refusal\"");
  try {
    submit();
    ADD_FAILURE() << "the refused apply did not stop the submit";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).find("s3cret-in-a-refusal"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("Invalid value: \"***\""), std::string::npos) << e.what();
  }
  ::unsetenv("FAKE_RUN_TOKEN");
  const json record = run_json();
  ASSERT_EQ(record["jobs"].size(), 2u);
  for (const auto& job : record["jobs"]) {
    EXPECT_EQ(job["reason"].get<std::string>().find("s3cret-in-a-refusal"), std::string::npos) << job.dump();
    EXPECT_TRUE(job["reason"].get<std::string>().starts_with("not created: apply Secret")) << job.dump();
  }
  options.dry_run = true;
  ::setenv("FAKE_RUN_TOKEN", "s3cret-in-a-refusal", 1);
  cluster->put({{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", kNamespace}}}});
  EXPECT_EQ(submit(), Outcome::kFailed);
  ::unsetenv("FAKE_RUN_TOKEN");
  EXPECT_EQ(err.str().find("s3cret-in-a-refusal"), std::string::npos) << err.str();
  EXPECT_NE(err.str().find("dry run: the API server refused"), std::string::npos) << err.str();
}

TEST_F(SubmitOnFake, DryRunChecksWithTheServerAndStoresNothing) {
  options.dry_run = true;
  ASSERT_EQ(submit(), Outcome::kSucceeded) << err.str();
  EXPECT_NE(err.str().find("namespace gpu-info does not exist yet"), std::string::npos) << err.str();
  EXPECT_GE(first_call("apply Namespace gpu-info (dry run)"), 0);
  EXPECT_EQ(cluster->count_calls("create"), 0);
  EXPECT_FALSE(cluster->object("Namespace", "", kNamespace).has_value());

  cluster->put({{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", kNamespace}}}});
  err.str("");
  ASSERT_EQ(submit(), Outcome::kSucceeded) << err.str();
  EXPECT_EQ(cluster->count_calls("create Job gpu-info/"), 2);
  EXPECT_EQ(cluster->count_calls("create Job gpu-info/probe"), cluster->count_calls("create Job"));
  for (const auto& call : cluster->calls())
    if (call.starts_with("create") || call.starts_with("apply")) {
      EXPECT_TRUE(call.ends_with("(dry run)")) << call;
    }
  EXPECT_TRUE(cluster->objects("Job").empty());
  EXPECT_NE(err.str().find("the API server accepted all"), std::string::npos) << err.str();

  cluster->refuse("create Job", 422);
  err.str("");
  EXPECT_EQ(submit(), Outcome::kFailed);
  EXPECT_NE(err.str().find("dry run: the API server refused: create Job gpu-info/"), std::string::npos) << err.str();
  EXPECT_FALSE(std::filesystem::exists(project.path() / ".gkebuild" / "runs"));
}

// With cluster.failover: follow the dry run sends each alternative's Job too (the follower may
// create it in its Job's place, under the same name), and the summary names the alternatives.
TEST_F(SubmitOnFake, DryRunChecksTheFollowedAlternativesJobs) {
  std::ofstream(project.path() / "gkebuild.yaml")
      << "apiVersion: gkebuild/v1\nproject: gpu-info\nregistry: registry.test/x\n"
         "cluster: {namespace: gpu-info, failover: follow}\n"
         "images:\n  info: {workload: gpu-info}\n"
         "experiments:\n  probe:\n    image: info\n    accelerators: [nvidia-l4]\n    spot: true\n"
         "    fallback: [{accelerator: nvidia-tesla-t4, gpus: 2}, {accelerator: nvidia-l4}]\n";
  options.plan.overrides.accelerators.clear();
  options.dry_run = true;
  cluster->put({{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", kNamespace}}}});
  ASSERT_EQ(submit(), Outcome::kSucceeded) << err.str();
  // One Job and its two alternatives, all under the Job's name.
  const auto calls = cluster->calls();
  std::vector<std::string> created;
  for (const auto& call : calls)
    if (call.starts_with("create Job")) created.push_back(call);
  ASSERT_EQ(created.size(), 3u) << err.str();
  EXPECT_EQ(created[0], created[1]);
  EXPECT_EQ(created[0], created[2]);
  EXPECT_TRUE(cluster->objects("Job").empty());
  EXPECT_NE(err.str().find("accepted all 2 objects and the 2 fallback Jobs"), std::string::npos) << err.str();
  EXPECT_NE(err.str().find("recreated on nvidia-tesla-t4 x2 on-demand, then nvidia-l4 x1 on-demand"), std::string::npos)
      << err.str();
  EXPECT_NE(out.str().find("# fallback 2 of 2 for probe-l4-0-"), std::string::npos) << out.str();
}

// The three Jobs: one done, one waiting for a node (its events say why: the only events
// listed), one whose pod is on its node and starting.
TEST_F(SubmitOnFake, StatusAsksTheClusterForAnUnfinishedRun) {
  options.plan.overrides.accelerators = {"nvidia-l4", "nvidia-tesla-t4", "nvidia-a100-80gb"};
  options.follow.follow = false;  // --detach
  ASSERT_EQ(submit(), Outcome::kSucceeded) << err.str();
  std::map<std::string, json> jobs;
  for (const auto& job : cluster->objects("Job"))
    for (const char* part : {"-l4-", "-t4-", "-a100-"})
      if (job["metadata"]["name"].get<std::string>().find(part) != std::string::npos) jobs[part] = job;
  ASSERT_EQ(jobs.size(), 3u);
  cluster->put(terminated(running(pod_of(jobs["-l4-"], "x1", "Pending"), "n1"), 0));
  cluster->put(finished(jobs["-l4-"], true));
  const json pod = unschedulable(pod_of(jobs["-t4-"], "x1", "Pending"), "0/2 nodes are available");
  cluster->put(pod);
  cluster->put(pod_event(pod, "TriggeredScaleUp", "pod triggered scale-up: [{t4-pool 0->1}]", "2026-01-01T00:00:01Z"));
  json starting = pod_of(jobs["-a100-"], "x1", "Pending");
  starting["spec"]["nodeName"] = "a100-node";
  starting["status"]["containerStatuses"] = {
      {{"name", "main"}, {"state", {{"waiting", {{"reason", "ContainerCreating"}}}}}}};
  cluster->put(starting);
  cluster->put(pod_event(starting, "Pulling", "Pulling image", "2026-01-01T00:00:02Z"));

  ASSERT_EQ(submit::status_command(run_command(), connect_to(cluster)), Outcome::kSucceeded);
  EXPECT_NE(out.str().find("1/3 succeeded, 2 pending"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("pending: starting (ContainerCreating)"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("pending: waiting for a GPU node (scale-up: pod triggered scale-up: [{t4-pool 0->1}])"),
            std::string::npos)
      << out.str();
  EXPECT_EQ(cluster->count_calls("list Event gpu-info"), 1) << "only the pod that waits to be scheduled";
  const json record = run_json();
  int succeeded = 0;
  for (const auto& job : record["jobs"]) succeeded += job["state"] == "succeeded";
  EXPECT_EQ(succeeded, 1) << "the record keeps what the cluster said";
}

TEST_F(SubmitOnFake, LogsFollowsAnUnfinishedRunToItsEnd) {
  options.follow.follow = false;  // --detach
  cluster->script("", succeeds(*cluster));
  ASSERT_EQ(submit(), Outcome::kSucceeded) << err.str();
  EXPECT_TRUE(run_json()["finished"].is_null());
  auto command = run_command();
  command.follow = true;
  ASSERT_EQ(submit::logs_command(command, connect_to(cluster)), Outcome::kSucceeded) << err.str();
  EXPECT_NE(out.str().find("] hello"), std::string::npos) << out.str();
  const json record = run_json();
  EXPECT_FALSE(record["finished"].is_null());
  for (const auto& job : record["jobs"]) EXPECT_EQ(job["state"], "succeeded") << job.dump();
}

TEST_F(SubmitOnFake, DeleteRemovesTheRunsJobsAndObjectsOnly) {
  ::setenv("FAKE_RUN_TOKEN", "s3cret-value", 1);
  options.secret_env = {"FAKE_RUN_TOKEN"};
  options.follow.follow = false;  // --detach
  ASSERT_EQ(submit(), Outcome::kSucceeded) << err.str();
  ::unsetenv("FAKE_RUN_TOKEN");
  const json other = {{"apiVersion", "batch/v1"},
                      {"kind", "Job"},
                      {"metadata", {{"name", "someone-elses"}, {"namespace", kNamespace},
                                    {"labels", {{"gkebuild.io/run", "another-run"}}}}}};
  cluster->put(other);
  ASSERT_EQ(cluster->objects("Job").size(), 3u);

  ASSERT_EQ(submit::delete_command(run_command(), connect_to(cluster)), Outcome::kSucceeded);
  EXPECT_NE(out.str().find("deleted 2 Jobs of run"), std::string::npos) << out.str();
  const auto left = cluster->objects("Job");
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left.front()["metadata"]["name"], "someone-elses");
  EXPECT_TRUE(cluster->objects("Secret").empty());
  EXPECT_EQ(cluster->count_calls("delete Job"), 2);
  const json record = run_json();
  EXPECT_FALSE(record["finished"].is_null());
  for (const auto& job : record["jobs"]) {
    EXPECT_EQ(job["state"], "failed");
    EXPECT_EQ(job["reason"], "Deleted");
  }
}

}  // namespace
}  // namespace gkebuild::testing
