// The pure parts of submit: Job and pod states, the follow view, result lines, sweep
// overrides and the local runner's $(VAR) expansion.
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>

#include "base/source_error.h"
#include "tests/common/temp_dir.h"
#include "tool/core/runrecord/results_file.h"
#include "tool/core/project/project.h"
#include "tool/submit/cost_summary.h"
#include "tool/submit/follow_view.h"
#include "tool/submit/job_progress.h"
#include "tool/submit/local_container.h"
#include "tool/submit/record_writer.h"
#include "tool/steps/plan/overrides.h"

namespace gkebuild::submit {
namespace {

using nlohmann::json;

// A Job of one pod with a one-hour deadline.
plan::PlannedJob one_pod_job(const std::string& accelerator, int gpus, const std::string& machine,
                       const std::string& provisioning) {
  plan::PlannedJob job;
  job.accelerator = accelerator;
  job.gpus = gpus;
  job.machine_type = machine;
  job.provisioning = provisioning;
  job.manifest.object = {{"spec", {{"completions", 1}, {"parallelism", 1}, {"activeDeadlineSeconds", 3600}}}};
  return job;
}

plan::RunPlan plan_of(std::vector<plan::PlannedJob> jobs) {
  plan::RunPlan plan;
  plan.experiment = "ddp";
  plan.namespace_name = "ml";
  plan.jobs = std::move(jobs);
  return plan;
}

// Flex-start and queued runs are billed at Dynamic Workload Scheduler prices, not on-demand
// ones: the summary priced them at the catalog's on-demand rate. The catalog holds no DWS
// figure (none is published), so such a group is unpriced and says why; a catalog that has one
// for the GPU and the VM uses it.
TEST(CostSummary, FlexStartAndQueuedRunsAreNotPricedOnDemand) {
  plan::RunPlan plan;
  for (const char* provisioning : {"on-demand", "flex-start", "queued"})
    plan.jobs.push_back(one_pod_job("nvidia-l4", 1, "g2-standard-4", provisioning));
  plan.experiment = "ddp";
  plan.namespace_name = "ml";
  const catalog::Catalog& catalog = catalog::Catalog::builtin();
  const std::string text = cost_summary(plan, catalog);
  // g2-standard-4 in us-central1: VM 0.14679 + one L4 0.56004 = 0.70683, Google's list price.
  EXPECT_NE(text.find("nvidia-l4 (on-demand): 1 Job, 1 pod, 1 GPU at once, g2-standard-4 nodes at $0.71/node-hour "
                      "(VM $0.15 + 1 GPU x $0.56)"),
            std::string::npos) << text;
  EXPECT_NE(text.find("nvidia-l4 (flex-start): 1 Job, 1 pod, 1 GPU at once, no DWS (flex-start) price: Google "
                      "publishes none per GPU or machine type"),
            std::string::npos) << text;
  EXPECT_NE(text.find("nvidia-l4 (queued): 1 Job, 1 pod, 1 GPU at once, no DWS (flex-start) price: Google "
                      "publishes none per GPU or machine type"),
            std::string::npos) << text;
  // Only the on-demand Job is in the hourly figure.
  EXPECT_NE(text.find("cost: about $0.71 per hour"), std::string::npos) << text;
  // A DWS price for the GPU alone leaves the node unpriced: its vCPUs and memory have none.
  catalog::Accelerator dws = *catalog.find("nvidia-l4");
  dws.flex_start = catalog::Price{0.5, "a test figure", "2026-11-28"};
  std::vector<catalog::MachinePrice> machines = catalog.machine_prices();
  const std::string gpu_only = cost_summary(plan, catalog::Catalog({dws}, "2026-11-28", machines));
  EXPECT_NE(gpu_only.find("nvidia-l4 (flex-start): 1 Job, 1 pod, 1 GPU at once, no DWS"), std::string::npos) << gpu_only;
  // With the VM's (catalog key flexStart in machines.yaml) both groups are priced at it.
  for (auto& machine : machines)
    if (machine.name == "g2-standard-4") machine.flex_start = 0.1;
  const std::string priced = cost_summary(plan, catalog::Catalog({dws}, "2026-11-28", machines));
  EXPECT_NE(priced.find("nvidia-l4 (flex-start): 1 Job, 1 pod, 1 GPU at once, g2-standard-4 nodes at $0.60/node-hour "
                        "(VM $0.10 + 1 GPU x $0.50)"),
            std::string::npos) << priced;
  EXPECT_NE(priced.find("nvidia-l4 (queued): 1 Job, 1 pod, 1 GPU at once, g2-standard-4 nodes at $0.60/node-hour"),
            std::string::npos) << priced;
  EXPECT_NE(priced.find("cost: about $1.91 per hour"), std::string::npos) << priced;  // 0.70683 + 2 x 0.6
}

// A CPU-only experiment's Jobs (no accelerator, gpus 0) are a group of their machine type,
// priced by it (they were unpriced: the catalog had GPU prices only).
TEST(CostSummary, CpuOnlyJobsArePricedByTheirMachineType) {
  const plan::RunPlan plan = plan_of({one_pod_job("", 0, "n2-standard-8", "on-demand"),
                                one_pod_job("", 0, "n2-standard-8", "on-demand"),
                                one_pod_job("", 0, "e2-standard-4", "spot"), one_pod_job("", 0, "z9-made-up-4", "on-demand")});
  const std::string text = cost_summary(plan, catalog::Catalog::builtin());
  EXPECT_NE(text.find("CPU-only n2-standard-8 (on-demand): 2 Jobs, 2 pods, 0 GPUs at once, n2-standard-8 nodes at "
                      "$0.39/node-hour\n"),
            std::string::npos) << text;
  EXPECT_NE(text.find("CPU-only e2-standard-4 (spot): 1 Job, 1 pod, 0 GPUs at once, e2-standard-4 nodes at "
                      "$0.06/node-hour\n"),
            std::string::npos) << text;
  EXPECT_NE(text.find("CPU-only z9-made-up-4 (on-demand): 1 Job, 1 pod, 0 GPUs at once, no catalog price for machine "
                      "type z9-made-up-4\n"),
            std::string::npos) << text;
  // 2 x 0.38847 + 0.05879 = 0.83573 an hour, for at most the one-hour deadline.
  EXPECT_NE(text.find("cost: about $0.84 per hour with every pod running; at most $0.84 if every Job runs to its "
                      "deadline (1 h); counts list prices in us-central1 (catalog of 2026-11-28) of whole nodes: "
                      "vCPUs, memory and every GPU the machine type carries, at the provisioning used; not disks, "
                      "network, committed-use or sustained-use discounts; us-central1, as the project file names no "
                      "cluster.location; without 1 unpriced group\n"),
            std::string::npos) << text;
}

// The node is what is billed: an A3's vCPUs and memory are counted with its eight H100s, n1's VM
// with its T4, and a pod that asks for fewer GPUs than the smallest machine type holds is
// counted as the whole machine. A reservation's VMs cost on-demand rates, and the summary says so.
TEST(CostSummary, PricesTheWholeNodeForTheProvisioningUsed) {
  const catalog::Catalog& catalog = catalog::Catalog::builtin();
  const plan::RunPlan plan = plan_of({one_pod_job("nvidia-h100-80gb", 8, "a3-highgpu-8g", "spot"),
                                one_pod_job("nvidia-tesla-t4", 1, "n1-standard-4", "on-demand"),
                                one_pod_job("nvidia-tesla-a100", 3, "a2-highgpu-4g", "reservation")});
  const std::string text = cost_summary(plan, catalog);
  const double h100_spot = catalog.find("nvidia-h100-80gb")->spot->usd_per_gpu_hour;
  const double a3_spot = 2.88933 + 8 * h100_spot;
  char expected[256];
  std::snprintf(expected, sizeof expected,
                "nvidia-h100-80gb (spot): 1 Job, 1 pod, 8 GPUs at once, a3-highgpu-8g nodes at $%.2f/node-hour (VM "
                "$2.89 + 8 GPUs x $%.2f)\n",
                a3_spot, h100_spot);
  EXPECT_NE(text.find(expected), std::string::npos) << text;
  EXPECT_NE(text.find("nvidia-tesla-t4 (on-demand): 1 Job, 1 pod, 1 GPU at once, n1-standard-4 nodes at "
                      "$0.54/node-hour (VM $0.19 + 1 GPU x $0.35)\n"),
            std::string::npos) << text;
  const double a100 = catalog.find("nvidia-tesla-a100")->on_demand->usd_per_gpu_hour;
  std::snprintf(expected, sizeof expected,
                "nvidia-tesla-a100 (reservation): 1 Job, 1 pod, 3 GPUs at once, a2-highgpu-4g nodes at $%.2f/node-hour "
                "(VM $2.96 + 4 GPUs x $%.2f); a pod asks for 3 of its 4 GPUs, the whole node is counted; a "
                "reservation's VMs are billed at on-demand rates\n",
                2.95791 + 4 * a100, a100);
  EXPECT_NE(text.find(expected), std::string::npos) << text;
  std::snprintf(expected, sizeof expected, "cost: about $%.2f per hour", a3_spot + 0.19 + 0.35 + 2.95791 + 4 * a100);
  EXPECT_NE(text.find(expected), std::string::npos) << text;
}

TEST(JobProgress, FailedConditionGivesTheReasonAndExitCode) {
  JobProgress job{"train"};
  PodProgress& pod = job.pods["train-abc"];
  update_from_pod(pod, json::parse(R"({"metadata": {"name": "train-abc"}, "spec": {"nodeName": "gke-1"},
      "status": {"phase": "Failed", "containerStatuses": [{"state": {"terminated": {"exitCode": 2,
      "finishedAt": "2026-11-22T03:00:00Z"}}}]}})"));
  update_from_job(job, json::parse(R"({"status": {"startTime": "2026-11-22T02:59:00Z", "conditions": [
      {"type": "Failed", "status": "True", "reason": "BackoffLimitExceeded",
       "lastTransitionTime": "2026-11-22T03:00:01Z"}]}})"));
  EXPECT_EQ(job.state, JobState::Failed);
  EXPECT_EQ(job.reason, "BackoffLimitExceeded: exit code 2");
  EXPECT_EQ(job.start, "2026-11-22T02:59:00Z");
  EXPECT_EQ(job.end, "2026-11-22T03:00:01Z");
  EXPECT_EQ(job.describe(), "failed: BackoffLimitExceeded: exit code 2");
}

// A Job retries: the reason names its last failed pod, not an earlier one (here an eviction its
// podFailurePolicy ignored), and while it runs again the replaced pod is counted.
TEST(JobProgress, RetriedJobNamesItsLastFailedPodAndCountsTheReplaced) {
  JobProgress job{"train"};
  update_from_pod(job.pods["train-aaa"], json::parse(R"({"metadata": {"name": "train-aaa"}, "status": {
      "phase": "Failed", "reason": "Evicted", "message": "The node was low on resource: memory.",
      "containerStatuses": [{"state": {"terminated": {"exitCode": 137, "finishedAt": "2026-11-22T03:00:00Z"}}}]}})"));
  update_from_pod(job.pods["train-bbb"], json::parse(R"({"metadata": {"name": "train-bbb"}, "spec": {"nodeName": "gke-2"},
      "status": {"phase": "Running", "containerStatuses": [{"state": {"running": {"startedAt": "2026-11-22T03:01:00Z"}}}]}})"));
  update_from_job(job, json::parse(R"({"status": {"active": 1, "ready": 1}})"));
  EXPECT_EQ(job.describe(), "running on gke-2, 1 failed pod replaced");
  update_from_pod(job.pods["train-bbb"], json::parse(R"({"metadata": {"name": "train-bbb"}, "status": {
      "phase": "Failed", "containerStatuses": [{"state": {"terminated": {"exitCode": 2, "reason": "Error",
      "finishedAt": "2026-11-22T03:02:00Z"}}}]}})"));
  update_from_job(job, json::parse(R"({"status": {"conditions": [
      {"type": "Failed", "status": "True", "reason": "BackoffLimitExceeded"}]}})"));
  EXPECT_EQ(job.reason, "BackoffLimitExceeded: exit code 2");
}

// An image never pulled until the deadline: the Job's reason says so.
TEST(JobProgress, DeadlineWhileThePullFailsSaysSo) {
  JobProgress job{"train"};
  update_from_pod(job.pods["train-aaa"], json::parse(R"({"metadata": {"name": "train-aaa"}, "status": {
      "phase": "Pending", "containerStatuses": [{"state": {"waiting": {"reason": "ImagePullBackOff"}}}]}})"));
  update_from_job(job, json::parse(R"({"status": {"conditions": [
      {"type": "Failed", "status": "True", "reason": "DeadlineExceeded"}]}})"));
  EXPECT_EQ(job.reason, "DeadlineExceeded: the image could not be pulled (ImagePullBackOff)");
}

TEST(JobProgress, CompleteConditionMeansSucceeded) {
  JobProgress job{"train"};
  update_from_job(job, json::parse(R"({"status": {"succeeded": 1, "completionTime": "2026-11-22T03:00:00Z",
      "conditions": [{"type": "Complete", "status": "True"}]}})"));
  EXPECT_EQ(job.state, JobState::Succeeded);
  EXPECT_EQ(job.end, "2026-11-22T03:00:00Z");
}

// A Job created suspended waits for Kueue; its Workload may say the queue cannot admit it.
TEST(JobProgress, SuspendedJobIsQueuedInKueue) {
  JobProgress job{"train"};
  job.reason = "waiting for a GPU node";  // from an older record: a Job seen again has none
  update_from_job(job, json::parse(R"({"spec": {"suspend": true}, "status": {}})"));
  EXPECT_EQ(job.state, JobState::Pending);
  EXPECT_EQ(job.describe(), "pending: queued (Kueue: waiting for quota)");
  EXPECT_EQ(job.reason, "");
  const json workload = json::parse(R"({"metadata": {"name": "job-train-1a2b3", "ownerReferences": [
      {"apiVersion": "batch/v1", "kind": "Job", "name": "train", "uid": "u"}]},
      "status": {"conditions": [{"type": "QuotaReserved", "status": "False", "reason": "Inadmissible",
      "message": "LocalQueue gpu doesn't exist"}]}})");
  EXPECT_EQ(job_of_workload(workload), "train");
  update_from_workload(job, workload);
  EXPECT_EQ(job.describe(), "pending: queued (Kueue: inadmissible: LocalQueue gpu doesn't exist)");
  // Admitted: Kueue unsuspended it, and what the pods say counts again.
  update_from_job(job, json::parse(R"({"spec": {"suspend": false}, "status": {}})"));
  EXPECT_EQ(job.describe(), "pending");
  update_from_workload(job, workload);  // a stale Workload does not queue a running Job again
  EXPECT_EQ(job.describe(), "pending");
}

// Queued provisioning: quota is reserved, but Kueue admits the Job only when GKE has made the
// nodes its ProvisioningRequest asks for; until then the admission check says so.
TEST(JobProgress, QuotaReservedJobWaitsForItsProvisioningRequest) {
  JobProgress job{"train"};
  update_from_job(job, json::parse(R"({"spec": {"suspend": true}, "status": {}})"));
  const json workload = json::parse(R"({"status": {
      "conditions": [{"type": "QuotaReserved", "status": "True", "reason": "QuotaReserved"},
                     {"type": "Admitted", "status": "False", "reason": "UnsatisfiedAdmissionChecks"}],
      "admissionChecks": [{"name": "big-queued", "state": "Pending",
                           "message": "Waiting for resources. Currently there are not enough resources available"}]}})");
  update_from_workload(job, workload);
  EXPECT_EQ(job.describe(), "pending: queued (Kueue: quota reserved; nodes not provisioned yet: admission check "
                            "big-queued Pending: Waiting for resources. Currently there are not enough resources "
                            "available)");
}

TEST(JobProgress, PendingPodSaysWhyItWaits) {
  JobProgress job{"train"};
  PodProgress& pod = job.pods["train-abc"];
  update_from_pod(pod, json::parse(R"({"metadata": {"name": "train-abc"}, "status": {"phase": "Pending",
      "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}]}})"));
  EXPECT_EQ(job.describe(), "pending: waiting for a GPU node");
  update_from_events(pod, {{"Normal", "TriggeredScaleUp", "pod triggered scale-up: [{gpu-pool 0->1}]", 1, ""}});
  EXPECT_EQ(job.describe(), "pending: waiting for a GPU node (scale-up: pod triggered scale-up: [{gpu-pool 0->1}])");
  update_from_pod(pod, json::parse(R"({"metadata": {"name": "train-abc"}, "spec": {"nodeName": "gke-1"},
      "status": {"phase": "Pending", "conditions": [{"type": "PodScheduled", "status": "True"}],
      "containerStatuses": [{"state": {"waiting": {"reason": "ContainerCreating"}}}]}})"));
  EXPECT_EQ(job.describe(), "pending: starting (ContainerCreating)");
  update_from_events(pod, {{"Normal", "Pulling", "Pulling image", 1, ""}});
  EXPECT_EQ(job.describe(), "pending: pulling the image on gke-1");
}

TEST(JobProgress, APendingPodSaysWhyTheAutoscalerAddsNoNode) {
  JobProgress job{"train"};
  PodProgress& pod = job.pods["train-abc"];
  update_from_pod(pod, json::parse(R"({"metadata": {"name": "train-abc"}, "status": {"phase": "Pending",
      "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}]}})"));
  update_from_events(pod, {{"Normal", "NotTriggerScaleUp",
                            "pod didn't trigger scale-up: 1 node(s) didn't match Pod's node affinity/selector", 1, ""}});
  EXPECT_EQ(job.describe(), "pending: waiting for a GPU node (scale-up: not triggered: pod didn't trigger scale-up: "
                            "1 node(s) didn't match Pod's node affinity/selector)");
  // The latest event decides: a scale-up that started and then failed on quota.
  update_from_events(pod, {{"Normal", "TriggeredScaleUp", "pod triggered scale-up: [{l4 0->1 (max: 4)}]", 1, "a"},
                           {"Warning", "FailedScaleUp",
                            "Node scale up in zones us-central1-a associated with this pod failed: GCE quota exceeded. "
                            "Pod is at risk of not being scheduled.", 1, "b"}});
  EXPECT_EQ(job.describe(), "pending: waiting for a GPU node: GPU quota exceeded (scale-up: failed: Node scale up in "
                            "zones us-central1-a associated with this pod failed: GCE quota exceeded. Pod is at risk of "
                            "not being scheduled.); ask for more GPUS_ALL_REGIONS and regional GPU quota, or use another "
                            "region");
}

TEST(JobProgress, IndexedPodKnowsItsIndex) {
  PodProgress pod;
  update_from_pod(pod, json::parse(R"({"metadata": {"name": "t-1-x",
      "annotations": {"batch.kubernetes.io/job-completion-index": "1"}}, "status": {"phase": "Running"}})"));
  EXPECT_EQ(pod.index, 1);
  EXPECT_TRUE(pod.has_output());
  EXPECT_EQ(job_of_pod(json::parse(R"({"metadata": {"labels": {"job-name": "t"}}})")), "t");
}

// A termination message holds a pod's results only when it has some and no note that more are
// in the log; other lines (FallbackToLogsOnError's log tail, a cut line) are not results.
TEST(TerminationMessage, HoldsThePodsResultsOnlyWhenNoneAreMissing) {
  const std::string result = R"({"schema":"gkebuild.workload.v1","metric":"time","value":1})";
  EXPECT_EQ(complete_results(""), std::nullopt);
  EXPECT_EQ(complete_results("starting\nSegmentation fault\n"), std::nullopt);
  EXPECT_EQ(complete_results(result + "\n" + result + "\n" + kResultsTruncated + "\n"), std::nullopt);
  EXPECT_EQ(complete_results(result + "\n{\"schema\":\"gkebuild.work"),
            std::optional<std::vector<std::string>>(std::vector<std::string>{result}));
  EXPECT_EQ(complete_results(result + "\n" + result),
            std::optional<std::vector<std::string>>(std::vector<std::string>{result, result}));
}

// The main container's terminated message is what the follower reads results from.
TEST(JobProgress, PodKeepsItsTerminationMessage) {
  PodProgress pod;
  update_from_pod(pod, nlohmann::json::parse(R"({"metadata":{"name":"p"},"status":{"phase":"Succeeded",
      "containerStatuses":[{"state":{"terminated":{"exitCode":0,"message":"line\n"}}}]}})"));
  EXPECT_EQ(pod.termination_message, "line\n");
  EXPECT_EQ(pod.exit_code, 0);
}

TEST(FollowView, WithoutATerminalOnlyChangesArePrinted) {
  std::ostringstream status;
  std::ostringstream logs;
  FollowView view(status, logs, false);
  view.show({{"a", "pending"}, {"bb", "pending"}});
  view.show({{"a", "running"}, {"bb", "pending"}});
  view.log("a", "hello");
  EXPECT_EQ(status.str(), "a   pending\nbb  pending\na   running\n");
  EXPECT_EQ(logs.str(), "[a] hello\n");
}

TEST(FollowView, OnATerminalTheBlockIsRedrawnBelowTheLogs) {
  std::ostringstream out;
  FollowView view(out, out, true);
  view.show({{"a", "pending"}});
  view.log("a", "hello");
  EXPECT_EQ(out.str(), "a  pending\n\x1b[1F\x1b[J[a] hello\na  pending\n");
}

TEST(FollowView, ASmallTerminalShowsUnfinishedJobsAndCountsTheRest) {
  std::ostringstream out;
  FollowView view(out, out, true, 6);  // room for 4 lines
  view.show({{"a", "succeeded"}, {"b", "running"}, {"c", "succeeded"}, {"d", "pending"}, {"e", "failed: x"}});
  EXPECT_EQ(out.str(), "b  running\nd  pending\na  succeeded\n… 2 more: 1 failed, 1 succeeded\n");
}

TEST(ResultLines, OnlyWorkloadSchemaObjectsCount) {
  EXPECT_TRUE(result_of(R"({"schema":"gkebuild.workload.v1","value":1})").is_object());
  EXPECT_TRUE(result_of(R"({"schema":"other"})").is_null());
  EXPECT_TRUE(result_of("{not json").is_null());
  EXPECT_TRUE(result_of("epoch 1 loss 0.3").is_null());
}

// Each result line carries its Job's sweep point and accelerator exactly as run.json has them,
// so that a line read on its own still says which point it measured.
TEST(ResultLines, CarryTheJobsSweepPointAndAccelerator) {
  gkebuild::testing::TempDir dir;
  std::filesystem::create_directories(dir / "logs");
  runrecord::RunRecord record;
  runrecord::JobRecord gpu_job, cpu_job;
  gpu_job.name = "train-0";
  gpu_job.accelerator = "nvidia-l4";
  gpu_job.parameters = {{"lr", 0.1}, {"opt", "adam"}};
  cpu_job.name = "train-1";  // ran without a GPU: accelerator null
  cpu_job.parameters = {{"lr", 0.01}, {"opt", "adam"}};
  record.jobs = {gpu_job, cpu_job};
  RecordWriter writer(dir.path(), record);
  const std::string line = R"({"schema":"gkebuild.workload.v1","workload":"train","metric":"loss","value":0.5,"unit":""})";
  writer.log_line("train-0", line, -1);
  writer.result_line("train-1", line, 3);  // a completion index of a one-node Job: no node_rank
  const auto results = runrecord::read_results(dir.path());
  ASSERT_EQ(results.lines.size(), 2u);
  EXPECT_FALSE(results.lines[1].line.contains("node_rank"));
  EXPECT_EQ(results.lines[0].line["parameters"], gpu_job.parameters);
  EXPECT_EQ(results.lines[0].line["accelerator"], "nvidia-l4");
  EXPECT_EQ(results.lines[1].line["parameters"], cpu_job.parameters);
  EXPECT_TRUE(results.lines[1].line["accelerator"].is_null());
  EXPECT_EQ(results.lines[1].job, "train-1");
}

// A multi-node Job's result lines say which node (pod) printed them.
TEST(ResultLines, OfAMultiNodeJobCarryTheNodeRank) {
  gkebuild::testing::TempDir dir;
  std::filesystem::create_directories(dir / "logs");
  runrecord::RunRecord record;
  runrecord::JobRecord job;
  job.name = "ddp-0";
  job.nodes = 2;
  record.jobs = {job};
  RecordWriter writer(dir.path(), record);
  const std::string line = R"({"schema":"gkebuild.workload.v1","workload":"train","metric":"loss","value":0.5,"unit":""})";
  writer.log_line("ddp-0", line, 1);
  writer.result_line("ddp-0", line, 0);
  const auto results = runrecord::read_results(dir.path());
  ASSERT_EQ(results.lines.size(), 2u);
  EXPECT_EQ(results.lines[0].line["node_rank"], 1);
  EXPECT_EQ(results.lines[1].line["node_rank"], 0);
}

TEST(SweepOverrides, ReplaceOrAddAxesTypedAsYaml) {
  project::Experiment experiment;
  experiment.sweep = {{"n", {4096, 8192}}};
  plan::apply_sweep_overrides(experiment, {{"n", {"256", "512"}}, {"precision", {"fp16"}}});
  ASSERT_EQ(experiment.sweep.size(), 2u);
  EXPECT_EQ(experiment.sweep[0].values, (std::vector<nlohmann::ordered_json>{256, 512}));
  EXPECT_EQ(experiment.sweep[1].values, (std::vector<nlohmann::ordered_json>{"fp16"}));
  EXPECT_THROW(plan::apply_sweep_overrides(experiment, {{"n", {}}}), Error);
  EXPECT_THROW(plan::apply_sweep_overrides(experiment, {{"n", {"1", "", "2"}}}), Error);
}

TEST(LocalContainer, EnvAndVariableExpansionFollowKubernetes) {
  const json container = json::parse(R"({"env": [{"name": "A", "value": "x"},
      {"name": "GKEBUILD_SEED", "valueFrom": {"fieldRef": {"fieldPath":
       "metadata.annotations['batch.kubernetes.io/job-completion-index']"}}}]})");
  const auto env = container_env(container, 2);
  EXPECT_EQ(expand_variables("--seed=$(GKEBUILD_SEED)", env), "--seed=2");
  EXPECT_EQ(expand_variables("$(A)$(MISSING)$$(A)", env), "x$(MISSING)$(A)");
  EXPECT_EQ(expand_variables("$(JOB_COMPLETION_INDEX)", env), "2");
}

}  // namespace
}  // namespace gkebuild::submit
