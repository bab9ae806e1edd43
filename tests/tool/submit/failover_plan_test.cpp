// The plan of an experiment whose fallback: the follower carries out (cluster.failover: follow,
// issue 41 part 2): each Job carries the Job of every alternative, in the list's order, under the
// same name (the follower deletes a waiting Job and creates the next alternative's in its place),
// with the alternative's accelerator, provisioning, GPUs and nodes; the dry-run stream shows them
// as comments only, so that `kubectl apply -f` of it creates the experiment's own Jobs alone.
#include <gtest/gtest.h>

#include <yaml-cpp/yaml.h>

#include "base/source_error.h"
#include "tool/core/project/project.h"
#include "tool/steps/plan/run_plan.h"

namespace gkebuild::submit {
namespace {

using nlohmann::json;

std::string project_text(const std::string& failover, const std::string& extra = "") {
  return "apiVersion: gkebuild/v1\n"
         "project: big\n"
         "registry: registry.test/p\n"
         "images:\n"
         "  train: {workload: gpu-info}\n"
         "experiments:\n"
         "  ddp:\n"
         "    image: train\n"
         "    accelerators: [nvidia-h100-80gb]\n"
         "    gpus: 8\n"
         "    provisioning: spot\n"
         "    args: ['--lr={{ lr }}']\n"
         "    sweep: {lr: [1, 2]}\n" +
         extra +
         "    fallback:\n"
         "      - {accelerator: nvidia-a100-80gb, gpus: 4, nodes: 2}\n"
         "      - {accelerator: nvidia-l4, gpus: 2, provisioning: flex-start}\n"
         "cluster: {failover: " + failover + ", gcpProject: my-project, location: us-central1}\n";
}

plan::RunPlan plan_of(const std::string& text) {
  const project::Project project = project::parse_project(text, "gkebuild.yaml");
  plan::PlanRequest request;
  request.experiment = "ddp";
  request.render.run_id = "r1";
  return plan::plan_run(project, request);
}

const json& pod_spec(const json& job) { return job["spec"]["template"]["spec"]; }

std::string env_value(const json& job, const std::string& name) {
  for (const auto& variable : pod_spec(job)["containers"][0]["env"])
    if (variable.value("name", "") == name) return variable.value("value", "");
  return "";
}

TEST(FailoverPlan, EachJobCarriesItsAlternativesUnderItsOwnName) {
  const plan::RunPlan plan = plan_of(project_text("follow"));
  ASSERT_EQ(plan.jobs.size(), 2u);
  for (const auto& job : plan.jobs) {
    // The experiment's own Job is rendered as without a fallback: its accelerator, spot.
    const json& own = job.manifest.object;
    EXPECT_EQ(pod_spec(own)["nodeSelector"]["cloud.google.com/gke-accelerator"], "nvidia-h100-80gb");
    EXPECT_EQ(pod_spec(own)["nodeSelector"]["cloud.google.com/gke-spot"], "true");
    EXPECT_FALSE(pod_spec(own)["nodeSelector"].contains("cloud.google.com/compute-class"));
    EXPECT_EQ(own["metadata"]["annotations"]["gkebuild.io/pending-timeout-seconds"], "900");
    ASSERT_EQ(job.alternatives.size(), 2u);
    const plan::PlannedAlternative& a100 = job.alternatives[0];
    const plan::PlannedAlternative& l4 = job.alternatives[1];
    for (const auto* alternative : {&a100, &l4}) {
      EXPECT_EQ(alternative->manifest.object["metadata"]["name"], job.name);
      EXPECT_EQ(alternative->manifest.object["metadata"]["annotations"]["gkebuild.io/point"],
                own["metadata"]["annotations"]["gkebuild.io/point"]);
      EXPECT_EQ(alternative->manifest.object["metadata"]["annotations"]["gkebuild.io/pending-timeout-seconds"], "900");
      // A recreated Job resumes from the same checkpoints.
      EXPECT_EQ(env_value(alternative->manifest.object, "GKEBUILD_CHECKPOINT_DIR"), env_value(own, "GKEBUILD_CHECKPOINT_DIR"));
    }
    // A100 on-demand, 4 GPUs on each of 2 nodes: an Indexed Job of 2 pods in the Service's subdomain.
    EXPECT_EQ(a100.accelerator, "nvidia-a100-80gb");
    EXPECT_EQ(a100.gpus, 4);
    EXPECT_EQ(a100.nodes, 2);
    EXPECT_EQ(a100.completions, 2);
    EXPECT_EQ(a100.provisioning, "on-demand");
    EXPECT_FALSE(a100.spot);
    EXPECT_EQ(a100.machine_type, "a2-ultragpu-4g");
    EXPECT_EQ(a100.describe, "nvidia-a100-80gb x4 on-demand on 2 nodes");
    const json& a100_pod = pod_spec(a100.manifest.object);
    EXPECT_EQ(a100_pod["nodeSelector"], json({{"cloud.google.com/gke-accelerator", "nvidia-a100-80gb"}}));
    EXPECT_EQ(a100_pod["containers"][0]["resources"]["limits"]["nvidia.com/gpu"], 4);
    EXPECT_EQ(a100.manifest.object["spec"]["completions"], 2);
    EXPECT_EQ(env_value(a100.manifest.object, "NNODES"), "2");
    const std::string service = a100_pod.value("subdomain", "");
    EXPECT_EQ(env_value(a100.manifest.object, "MASTER_ADDR"), job.name + "-0." + service);
    // The headless Service it needs (the experiment's own Jobs are single-node) is planned among
    // the support objects, selecting the pods by the Job's name, which every alternative keeps.
    bool service_planned = false;
    for (const auto& object : plan.support)
      if (object.object.value("kind", "") == "Service" && object.object["metadata"]["name"] == service) {
        service_planned = true;
        EXPECT_EQ(object.object["spec"]["selector"]["batch.kubernetes.io/job-name"], job.name);
      }
    EXPECT_TRUE(service_planned) << service;
    // L4 flex-start, 2 GPUs, one node.
    EXPECT_EQ(l4.describe, "nvidia-l4 x2 flex-start");
    EXPECT_EQ(l4.provisioning, "flex-start");
    EXPECT_EQ(l4.machine_type, "g2-standard-24");
    const json& l4_pod = pod_spec(l4.manifest.object);
    EXPECT_EQ(l4_pod["nodeSelector"]["cloud.google.com/gke-accelerator"], "nvidia-l4");
    EXPECT_EQ(l4_pod["nodeSelector"]["cloud.google.com/gke-flex-start"], "true");
    EXPECT_EQ(l4_pod["containers"][0]["resources"]["limits"]["nvidia.com/gpu"], 2);
    EXPECT_FALSE(l4.manifest.object["spec"].contains("completions"));
  }
  EXPECT_NE(plan.jobs[0].name, plan.jobs[1].name);
}

TEST(FailoverPlan, AComputeClassFallbackPlansNoAlternatives) {
  // The ComputeClass takes alternatives of the experiment's shape only.
  const std::string text =
      "apiVersion: gkebuild/v1\nproject: big\nregistry: registry.test/p\nimages:\n  train: {workload: gpu-info}\n"
      "experiments:\n  ddp:\n    image: train\n    accelerators: [nvidia-h100-80gb]\n    gpus: 8\n"
      "    fallback: [{accelerator: nvidia-a100-80gb}]\n";
  const plan::RunPlan plan = plan_of(text);
  ASSERT_EQ(plan.jobs.size(), 1u);
  EXPECT_TRUE(plan.jobs[0].alternatives.empty());
  EXPECT_EQ(plan::manifest_stream(plan).find("# fallback"), std::string::npos);
}

// kubectl apply -f of the dry-run stream must create the experiment's own Jobs only.
TEST(FailoverPlan, TheStreamShowsAlternativesAsComments) {
  const plan::RunPlan plan = plan_of(project_text("follow"));
  const std::string stream = plan::manifest_stream(plan);
  const std::string header = "# fallback 1 of 2 for " + plan.jobs[0].name + ": nvidia-a100-80gb x4 on-demand on 2 nodes\n";
  const auto at = stream.find(header);
  ASSERT_NE(at, std::string::npos) << stream;
  EXPECT_NE(stream.find("# fallback 2 of 2 for " + plan.jobs[1].name + ": nvidia-l4 x2 flex-start\n"), std::string::npos);
  EXPECT_EQ(stream.substr(at + header.size(), 24), "# apiVersion: batch/v1\n#");
  const auto documents = YAML::LoadAll(stream);
  std::size_t objects = 0;
  for (const auto& document : documents) objects += document.IsNull() ? 0 : 1;
  EXPECT_EQ(objects, plan.support.size() + plan.jobs.size());
  for (const auto& document : documents)
    if (document["kind"].as<std::string>() == "Job")
      EXPECT_EQ(document["metadata"]["labels"]["gkebuild.io/accelerator"].as<std::string>(), "nvidia-h100-80gb");
}

// The follower recreates only the Job: an Indexed sweep's alternative must read the same points.
std::string indexed_sweep() {
  std::string text = project_text("follow", "    parallelism: 2\n");
  text.replace(text.find("gpus: 4, nodes: 2"), 17, "gpus: 4");  // a multi-node Job's index is its rank
  return text;
}

TEST(FailoverPlan, AnIndexedSweepKeepsItsConfigMapOfPoints) {
  const plan::RunPlan plan = plan_of(indexed_sweep());
  ASSERT_EQ(plan.jobs.size(), 1u);
  ASSERT_EQ(plan.jobs[0].alternatives.size(), 2u);
  std::size_t config_maps = 0;
  for (const auto& object : plan.support) config_maps += object.object.value("kind", "") == "ConfigMap" ? 1 : 0;
  EXPECT_EQ(config_maps, 1u);
  std::string text = indexed_sweep();
  text.replace(text.find("'--lr={{ lr }}'"), 15, "'--lr={{ lr }}', '--on={{ accelerator }}'");
  try {
    plan_of(text);
    ADD_FAILURE() << "an alternative's points differ, and nothing said so";
  } catch (const SourceError& error) {
    EXPECT_EQ(error.where().line, 16) << error.what();  // the fallback: list
    EXPECT_NE(std::string(error.what()).find("the follower recreates only the Job"), std::string::npos) << error.what();
  }
}

// What the project file refuses beside a followed fallback, the command line may not add.
TEST(FailoverPlan, TheCommandLineAddsNoQueueNorAnIndexedSweepOfMultiNodeJobs) {
  const project::Project project = project::parse_project(project_text("follow"), "gkebuild.yaml");
  plan::PlanRequest request;
  request.experiment = "ddp";
  request.render.run_id = "r1";
  request.overrides.queue = "gpu";
  try {
    plan::plan_run(project, request);
    ADD_FAILURE() << "--queue with a followed fallback";
  } catch (const SourceError& error) {
    EXPECT_NE(std::string(error.what()).find("--queue: experiment 'ddp' has a fallback: list"), std::string::npos)
        << error.what();
  }
  request.overrides.queue.clear();
  request.overrides.parallelism = 2;
  try {
    plan::plan_run(project, request);
    ADD_FAILURE() << "--parallelism with a multi-node alternative";
  } catch (const SourceError& error) {
    EXPECT_NE(std::string(error.what()).find("--parallelism: the fallback alternative nvidia-a100-80gb x4 on-demand on 2 "
                                             "nodes"),
              std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace gkebuild::submit
