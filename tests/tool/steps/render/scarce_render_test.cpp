// `gkebuild render` of scarce-GPU and multi-node experiments: flex-start, queued and
// reservation selectors and tolerations; a multi-node experiment as an Indexed Job of one pod
// per node with its headless Service and the torchrun variables; storage.gcs as a GCS FUSE CSI
// volume with the Jobs' ServiceAccount; GKEBUILD_CHECKPOINT_DIR; the queued-provisioning Kueue
// objects. Everything rendered passes `gkebuild validate` (Kueue's and the autoscaler's CRD
// schemas, tests/tool/core/kube/kueue-schemas) and kubernetes-validate in strict mode.
#include <gtest/gtest.h>

#include <yaml-cpp/yaml.h>

#include <fstream>

#include "base/atomic_file.h"
#include "tests/common/run.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::testing {
namespace {

const std::string kSchemas = std::string(GKEBUILD_SOURCE_ROOT) + "/tests/tool/core/kube/kueue-schemas";

const std::string kProject = R"(apiVersion: gkebuild/v1
project: big
registry: registry.test/p
images:
  train: {workload: gpu-info}
storage:
  gcs: {bucket: my-data, mountPath: /data, onlyDir: runs}
kueue:
  queue: gpu
  gpus: {nvidia-h100-80gb: 16, nvidia-l4: 4}
experiments:
  flex: {image: train, accelerators: [nvidia-l4], provisioning: flex-start}
  ddp:
    image: train
    accelerators: [nvidia-h100-80gb]
    gpus: 8
    nodes: 2
    provisioning: queued
    queue: gpu-queued
    sweep: {lr: [0.1, 0.2]}
    args: ["--lr", "{{ lr }}"]
  held: {image: train, accelerators: [nvidia-h100-80gb], gpus: 8, nodes: 2, env: {MASTER_PORT: "23456"},
         reservation: {name: projects/owner-proj/reservations/h100, zone: us-central1-b}}
  3d-unet: {image: train, accelerators: [nvidia-h100-80gb], gpus: 8, nodes: 2, shmSize: 64Gi}
cluster:
  gcpProject: my-project
  location: us-central1
  serviceAccount: trainer
)";

class ScarceRender : public ::testing::Test {
 protected:
  TempDir scratch;
  std::filesystem::path out = scratch / "out";

  void SetUp() override {
    write_file_atomically(scratch / "gkebuild.yaml", kProject);
    const auto rendered = run_gkebuild("render --run-id r1 -f " + (scratch / "gkebuild.yaml").string() + " -o " +
                                       out.string());
    ASSERT_EQ(rendered.exit_code, 0) << rendered.err;
  }
  YAML::Node object(const std::string& file) const { return YAML::LoadFile((out / file).string()); }
  std::string files() const {
    std::string list;
    for (const auto& entry : std::filesystem::directory_iterator(out))
      if (entry.path().extension() == ".yaml") list += " '" + entry.path().string() + "'";
    return list;
  }
};

// The env of a container as name -> value (or the fieldRef's path).
std::map<std::string, std::string> env_of(const YAML::Node& container) {
  std::map<std::string, std::string> env;
  for (const auto& item : container["env"])
    env[item["name"].as<std::string>()] =
        item["value"] ? item["value"].as<std::string>() : item["valueFrom"]["fieldRef"]["fieldPath"].as<std::string>();
  return env;
}

TEST_F(ScarceRender, MultiNodeJobIsAnIndexedJobWithItsHeadlessService) {
  const YAML::Node job = object("job-ddp-h100-0-r1.yaml");
  const YAML::Node service = object("service-ddp-h100-0-r1.yaml");
  EXPECT_EQ(service["spec"]["clusterIP"].as<std::string>(), "None");
  EXPECT_EQ(service["spec"]["selector"]["batch.kubernetes.io/job-name"].as<std::string>(), "ddp-h100-0-r1");
  const YAML::Node spec = job["spec"];
  EXPECT_EQ(spec["completionMode"].as<std::string>(), "Indexed");
  EXPECT_EQ(spec["completions"].as<int>(), 2);
  EXPECT_EQ(spec["parallelism"].as<int>(), 2);
  const YAML::Node rules = spec["podFailurePolicy"]["rules"];
  ASSERT_EQ(rules.size(), 2u);
  // restarts: 3 by default for nodes > 1: a disrupted node fails the Job, which the follower
  // recreates whole (a gang restart).
  EXPECT_EQ(rules[0]["action"].as<std::string>(), "FailJob");
  EXPECT_EQ(rules[0]["onPodConditions"][0]["type"].as<std::string>(), "DisruptionTarget");
  EXPECT_EQ(rules[1]["action"].as<std::string>(), "FailJob");  // a failed node fails the Job
  EXPECT_EQ(rules[1]["onExitCodes"]["operator"].as<std::string>(), "NotIn");
  const YAML::Node pod = spec["template"]["spec"];
  EXPECT_EQ(pod["subdomain"].as<std::string>(), "ddp-h100-0-r1");
  const auto env = env_of(pod["containers"][0]);
  EXPECT_EQ(env.at("MASTER_ADDR"), "ddp-h100-0-r1-0.ddp-h100-0-r1");
  EXPECT_EQ(env.at("MASTER_PORT"), "29500");
  EXPECT_EQ(env.at("NNODES"), "2");
  EXPECT_EQ(env.at("NODE_RANK"), "metadata.annotations['batch.kubernetes.io/job-completion-index']");
  EXPECT_EQ(env.at("GPUS_PER_NODE"), "8");
  EXPECT_EQ(env.at("GKEBUILD_CHECKPOINT_DIR"), "/data/checkpoints/r1/ddp-h100-0-r1");
  // The second sweep point is a Job (and Service) of its own.
  EXPECT_EQ(object("job-ddp-h100-1-r1.yaml")["spec"]["template"]["spec"]["subdomain"].as<std::string>(), "ddp-h100-1-r1");
  // An experiment's own MASTER_PORT replaces the default.
  const auto held = env_of(object("job-held-h100-0-r1.yaml")["spec"]["template"]["spec"]["containers"][0]);
  EXPECT_EQ(held.at("MASTER_PORT"), "23456");
}

// The objects of `kind` among the rendered files, by their experiment label.
std::vector<YAML::Node> rendered_of(const std::filesystem::path& out, const std::string& kind, const std::string& experiment) {
  std::vector<YAML::Node> found;
  for (const auto& entry : std::filesystem::directory_iterator(out)) {
    if (entry.path().extension() != ".yaml") continue;  // the Dockerfiles render writes beside them
    const YAML::Node node = YAML::LoadFile(entry.path().string());
    if (node["kind"] && node["kind"].as<std::string>() == kind &&
        node["metadata"]["labels"]["gkebuild.io/experiment"].as<std::string>("") == experiment)
      found.push_back(node);
  }
  return found;
}

// An experiment named "3d-unet": its Job may be "3d-unet-…", but its headless Service must start
// with a letter (a DNS-1035 label) or the API server refuses it and MASTER_ADDR never resolves.
TEST_F(ScarceRender, AServiceNameStartsWithALetter) {
  const auto services = rendered_of(out, "Service", "3d-unet");
  const auto jobs = rendered_of(out, "Job", "3d-unet");
  ASSERT_EQ(services.size(), 1u);
  ASSERT_EQ(jobs.size(), 1u);
  const std::string job = jobs[0]["metadata"]["name"].as<std::string>();
  const std::string service = services[0]["metadata"]["name"].as<std::string>();
  EXPECT_EQ(job, "3d-unet-h100-0-r1");
  EXPECT_EQ(service, "svc-3d-unet-h100-0-r1");
  EXPECT_EQ(services[0]["spec"]["selector"]["batch.kubernetes.io/job-name"].as<std::string>(), job);
  const YAML::Node pod = jobs[0]["spec"]["template"]["spec"];
  EXPECT_EQ(pod["subdomain"].as<std::string>(), service);
  EXPECT_EQ(env_of(pod["containers"][0]).at("MASTER_ADDR"), job + "-0." + service);
  // A name that starts with a letter is kept as it was.
  EXPECT_EQ(object("job-ddp-h100-0-r1.yaml")["spec"]["template"]["spec"]["subdomain"].as<std::string>(), "ddp-h100-0-r1");
}

// Every pod mounts an in-memory /dev/shm (the runtime's is 64 MiB), sized by shmSize when given,
// as GKE's multi-GPU samples mount it (emptyDir medium Memory).
TEST_F(ScarceRender, EveryPodHasAnInMemoryDevShm) {
  for (const auto& [file, size] : std::vector<std::pair<std::string, std::string>>{
           {"job-ddp-h100-0-r1.yaml", ""}, {"job-flex-nvidia-l4-0.yaml", ""}}) {
    const YAML::Node pod = object(file)["spec"]["template"]["spec"];
    const YAML::Node volume = pod["volumes"][pod["volumes"].size() - 1];
    const YAML::Node mounts = pod["containers"][0]["volumeMounts"];
    EXPECT_EQ(volume["name"].as<std::string>(), "dshm") << file;
    EXPECT_EQ(volume["emptyDir"]["medium"].as<std::string>(), "Memory") << file;
    EXPECT_FALSE(volume["emptyDir"]["sizeLimit"]) << file;
    EXPECT_EQ(mounts[mounts.size() - 1]["name"].as<std::string>(), "dshm") << file;
    EXPECT_EQ(mounts[mounts.size() - 1]["mountPath"].as<std::string>(), "/dev/shm") << file;
  }
  const YAML::Node unet = rendered_of(out, "Job", "3d-unet")[0]["spec"]["template"]["spec"];
  EXPECT_EQ(unet["volumes"][unet["volumes"].size() - 1]["emptyDir"]["sizeLimit"].as<std::string>(), "64Gi");
}

TEST_F(ScarceRender, ProvisioningSelectsItsNodes) {
  const YAML::Node queued = object("job-ddp-h100-0-r1.yaml");
  EXPECT_EQ(queued["metadata"]["labels"]["kueue.x-k8s.io/queue-name"].as<std::string>(), "gpu-queued");
  EXPECT_EQ(queued["metadata"]["annotations"]["provreq.kueue.x-k8s.io/maxRunDurationSeconds"].as<std::string>(), "86400");
  const YAML::Node pod = queued["spec"]["template"]["spec"];
  EXPECT_EQ(pod["nodeSelector"]["cloud.google.com/gke-flex-start"].as<std::string>(), "true");
  // Only queued-provisioning nodes carry gke-queued: a plain flex-start pool's nodes are not for it.
  EXPECT_EQ(pod["nodeSelector"]["cloud.google.com/gke-queued"].as<std::string>(), "true");
  std::vector<std::string> tolerated;
  for (const auto& toleration : pod["tolerations"]) tolerated.push_back(toleration["key"].as<std::string>());
  EXPECT_EQ(tolerated, (std::vector<std::string>{"nvidia.com/gpu", "cloud.google.com/gke-flex-start",
                                                 "cloud.google.com/gke-queued"}));
  const YAML::Node flex = object("job-flex-nvidia-l4-0.yaml")["spec"]["template"]["spec"];
  EXPECT_EQ(flex["nodeSelector"]["cloud.google.com/gke-flex-start"].as<std::string>(), "true");
  EXPECT_EQ(flex["tolerations"].size(), 2u);  // no gke-queued
  EXPECT_FALSE(flex["nodeSelector"]["cloud.google.com/gke-queued"]);
  const YAML::Node held = object("job-held-h100-0-r1.yaml")["spec"]["template"]["spec"]["nodeSelector"];
  EXPECT_EQ(held["cloud.google.com/reservation-name"].as<std::string>(), "h100");
  EXPECT_EQ(held["cloud.google.com/reservation-project"].as<std::string>(), "owner-proj");
  EXPECT_FALSE(held["cloud.google.com/gke-flex-start"]);
  EXPECT_FALSE(held["cloud.google.com/reservation-affinity"]);  // Autopilot's selector only
}

// Autopilot makes nodes from a Pod's selectors: a specific reservation needs reservation-affinity
// "specific" beside reservation-name, as GKE's Autopilot reservation examples write it.
TEST(ScarceRenderAutopilot, AReservationSelectsSpecificAffinity) {
  TempDir scratch;
  std::string text = kProject;
  text.replace(text.find("  serviceAccount: trainer\n"), 25, "  serviceAccount: trainer\n  autopilot: true\n");
  write_file_atomically(scratch / "gkebuild.yaml", text);
  const auto rendered = run_gkebuild("render --run-id r1 experiment/held -f " + (scratch / "gkebuild.yaml").string() +
                                     " -o " + (scratch / "out").string());
  ASSERT_EQ(rendered.exit_code, 0) << rendered.err;
  const auto jobs = rendered_of(scratch / "out", "Job", "held");
  ASSERT_EQ(jobs.size(), 1u);
  const YAML::Node selector = jobs[0]["spec"]["template"]["spec"]["nodeSelector"];
  EXPECT_EQ(selector["cloud.google.com/reservation-name"].as<std::string>(), "h100");
  EXPECT_EQ(selector["cloud.google.com/reservation-affinity"].as<std::string>(), "specific");
}

TEST_F(ScarceRender, CloudStorageVolumeAndServiceAccount) {
  const YAML::Node job = object("job-flex-nvidia-l4-0.yaml");
  EXPECT_EQ(job["spec"]["template"]["metadata"]["annotations"]["gke-gcsfuse/volumes"].as<std::string>(), "true");
  const YAML::Node pod = job["spec"]["template"]["spec"];
  EXPECT_EQ(pod["serviceAccountName"].as<std::string>(), "trainer");
  const YAML::Node csi = pod["volumes"][0]["csi"];
  EXPECT_EQ(csi["driver"].as<std::string>(), "gcsfuse.csi.storage.gke.io");
  EXPECT_FALSE(csi["readOnly"].as<bool>());
  EXPECT_EQ(csi["volumeAttributes"]["bucketName"].as<std::string>(), "my-data");
  EXPECT_EQ(csi["volumeAttributes"]["mountOptions"].as<std::string>(), "implicit-dirs,only-dir=runs");
  EXPECT_EQ(pod["containers"][0]["volumeMounts"][0]["mountPath"].as<std::string>(), "/data");
}

// A bare Pod (render pod/NAME) mounts the bucket too, so it needs the annotation that brings the sidecar.
TEST_F(ScarceRender, APodOfTheExperimentGetsTheGcsFuseAnnotation) {
  const auto rendered = run_gkebuild("render --run-id r1 pod/flex -f " + (scratch / "gkebuild.yaml").string());
  ASSERT_EQ(rendered.exit_code, 0) << rendered.err;
  const YAML::Node pod = YAML::Load(rendered.out.substr(rendered.out.find("kind: Pod") - 16));
  EXPECT_EQ(pod["metadata"]["annotations"]["gke-gcsfuse/volumes"].as<std::string>(), "true") << rendered.out;
  EXPECT_EQ(pod["spec"]["volumes"][0]["csi"]["driver"].as<std::string>(), "gcsfuse.csi.storage.gke.io");
}

TEST_F(ScarceRender, QueuedProvisioningKueueObjects) {
  const YAML::Node check = object("admissioncheck-big-queued.yaml");
  EXPECT_EQ(check["spec"]["controllerName"].as<std::string>(), "kueue.x-k8s.io/provisioning-request");
  EXPECT_EQ(check["spec"]["parameters"]["kind"].as<std::string>(), "ProvisioningRequestConfig");
  EXPECT_EQ(check["spec"]["parameters"]["name"].as<std::string>(), "big-queued");
  EXPECT_EQ(object("provisioningrequestconfig-big-queued.yaml")["spec"]["provisioningClassName"].as<std::string>(),
            "queued-provisioning.gke.io");
  const YAML::Node queue = object("clusterqueue-big-queued.yaml")["spec"];
  EXPECT_EQ(queue["admissionChecks"][0].as<std::string>(), "big-queued");
  EXPECT_EQ(queue["resourceGroups"][0]["flavors"][0]["name"].as<std::string>(), "nvidia-h100-80gb-queued");
  EXPECT_EQ(object("localqueue-gpu-queued.yaml")["spec"]["clusterQueue"].as<std::string>(), "big-queued");
  EXPECT_FALSE(object("clusterqueue-big.yaml")["spec"]["admissionChecks"]);  // the ordinary queue has no check
  // Both queues cover cpu and memory although kueue: gives no quota for them: a pod whose
  // requests a LimitRange or Autopilot defaults would otherwise never be admitted.
  for (const char* file : {"clusterqueue-big.yaml", "clusterqueue-big-queued.yaml"}) {
    const YAML::Node group = object(file)["spec"]["resourceGroups"][0];
    EXPECT_EQ(group["coveredResources"].as<std::vector<std::string>>(),
              (std::vector<std::string>{"nvidia.com/gpu", "cpu", "memory"})) << file;
    EXPECT_EQ(group["flavors"][0]["resources"][1]["nominalQuota"].as<std::string>(), "10000") << file;
    EXPECT_EQ(group["flavors"][0]["resources"][2]["nominalQuota"].as<std::string>(), "10000Gi") << file;
  }
}

TEST_F(ScarceRender, EverythingPassesValidateAndKubernetesValidate) {
  const auto checked = run_gkebuild("validate --strict-kinds --schema-location " + kSchemas + files());
  EXPECT_EQ(checked.exit_code, 0) << checked.out << checked.err;
  std::string core;  // kubernetes-validate knows the built-in kinds only
  for (const auto& entry : std::filesystem::directory_iterator(out))
    if (entry.path().filename().string().starts_with("job-") || entry.path().filename().string().starts_with("service-"))
      core += " '" + entry.path().string() + "'";
  const auto peer = run_command("kubernetes-validate --strict --quiet -k 1.33.0" + core);
  EXPECT_EQ(peer.exit_code, 0) << peer.out << peer.err;
  // The schemas are applied: an AdmissionCheck with a wrong field fails.
  std::ifstream in(out / "admissioncheck-big-queued.yaml");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  text.replace(text.find("controllerName"), 14, "controller");
  write_file_atomically(scratch / "wrong.yaml", text);
  const auto refused = run_gkebuild("validate --strict-kinds --schema-location " + kSchemas + " " +
                                    (scratch / "wrong.yaml").string());
  EXPECT_EQ(refused.exit_code, 1) << refused.out << refused.err;
}

// cluster.jobset: true: a multi-node sweep point as a JobSet, checked against JobSet's CRD schema
// (v0.12.0); its pods find rank 0 under the name the JobSet controller gives it. submit refuses it.
TEST(ScarceRenderJobSet, MultiNodeExperimentAsAJobSet) {
  TempDir scratch;
  std::string text = kProject;
  text.replace(text.find("  serviceAccount: trainer\n"), 25, "  serviceAccount: trainer\n  jobset: true\n");
  write_file_atomically(scratch / "gkebuild.yaml", text);
  const auto out = scratch / "out";
  const auto rendered = run_gkebuild("render --run-id r1 experiment/ddp -f " + (scratch / "gkebuild.yaml").string() +
                                     " -o " + out.string());
  ASSERT_EQ(rendered.exit_code, 0) << rendered.err;
  EXPECT_FALSE(std::filesystem::exists(out / "service-ddp-h100-0-r1.yaml"));  // the JobSet controller makes it
  const YAML::Node jobset = YAML::LoadFile((out / "jobset-ddp-nvidia-h100-80gb-0.yaml").string());
  EXPECT_EQ(jobset["kind"].as<std::string>(), "JobSet");
  EXPECT_EQ(jobset["metadata"]["labels"]["kueue.x-k8s.io/queue-name"].as<std::string>(), "gpu-queued");
  EXPECT_TRUE(jobset["spec"]["suspend"].as<bool>());
  const YAML::Node job = jobset["spec"]["replicatedJobs"][0];
  EXPECT_EQ(job["name"].as<std::string>(), "nodes");
  EXPECT_EQ(job["template"]["spec"]["completions"].as<int>(), 2);
  const YAML::Node container = job["template"]["spec"]["template"]["spec"]["containers"][0];
  std::map<std::string, std::string> env;
  for (const auto& item : container["env"])
    if (item["value"]) env[item["name"].as<std::string>()] = item["value"].as<std::string>();
  EXPECT_EQ(env["MASTER_ADDR"], "ddp-h100-0-r1-nodes-0-0.ddp-h100-0-r1");
  // A JobSet's name starts its Jobs' and pods' DNS-1035 names: "3d-unet" gets a letter first.
  const auto unet = run_gkebuild("render --run-id r1 experiment/3d-unet -f " + (scratch / "gkebuild.yaml").string() +
                                 " -o " + (scratch / "unet").string());
  ASSERT_EQ(unet.exit_code, 0) << unet.err;
  const auto unet_sets = rendered_of(scratch / "unet", "JobSet", "3d-unet");
  ASSERT_EQ(unet_sets.size(), 1u);
  EXPECT_EQ(unet_sets[0]["metadata"]["name"].as<std::string>(), "js-3d-unet-h100-0-r1");
  std::string files;
  for (const auto& entry : std::filesystem::directory_iterator(out)) files += " '" + entry.path().string() + "'";
  const auto checked = run_gkebuild("validate --strict-kinds --schema-location " + kSchemas + files);
  EXPECT_EQ(checked.exit_code, 0) << checked.out << checked.err;
  const auto submitted = run_gkebuild("submit ddp --dry-run -f " + (scratch / "gkebuild.yaml").string());
  EXPECT_EQ(submitted.exit_code, 2) << submitted.out << submitted.err;
  EXPECT_NE(submitted.err.find("cluster.jobset: submit creates and follows Indexed Jobs"), std::string::npos)
      << submitted.err;
}

}  // namespace
}  // namespace gkebuild::testing
