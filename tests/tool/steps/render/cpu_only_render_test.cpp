// A CPU-only experiment rendered (issue 42): its Job has no GPU field (no nvidia.com/gpu
// requests or limits, no nvidia.com/gpu toleration, no gke-accelerator selector, no driver
// folders in PATH) and selects its machine type; field by field it is the plain CPU Job of
// Kubernetes' own docs plus gkebuild's defaults. `gkebuild validate` finds nothing GPU in it,
// and kubernetes-validate (strict) accepts it.
#include <gtest/gtest.h>

#include <yaml-cpp/yaml.h>

#include <set>

#include "base/atomic_file.h"
#include "tests/common/run.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::testing {
namespace {

const std::string kProject = R"(apiVersion: gkebuild/v1
project: prep
registry: registry.test/p
images:
  numpy: {workload: gpu-info}
experiments:
  digits: {image: numpy, command: [python3, train.py], machineType: n2-standard-8, cpu: "6", memory: 24Gi}
  plain: {image: numpy, gpus: 0}
  cheap: {image: numpy, spot: true}
  l4: {image: numpy, accelerators: [nvidia-l4]}
cluster:
  gcpProject: my-project
  location: us-central1
)";

// The "pi" Job of https://kubernetes.io/docs/concepts/workloads/controllers/job/ (its
// controllers/job.yaml), the plain CPU Job the rendered one is compared with.
const char* kDocsJob = R"job(apiVersion: batch/v1
kind: Job
metadata:
  name: pi
spec:
  template:
    spec:
      containers:
      - name: pi
        image: perl:5.34.0
        command: ["perl",  "-Mbignum=bpi", "-wle", "print bpi(2000)"]
      restartPolicy: Never
  backoffLimit: 4
)job";

class CpuOnlyRender : public ::testing::Test {
 protected:
  TempDir scratch;
  std::filesystem::path out = scratch / "out";

  void SetUp() override {
    write_file_atomically(scratch / "gkebuild.yaml", kProject);
    const auto rendered = run_gkebuild("render --run-id r1 -f " + (scratch / "gkebuild.yaml").string() + " -o " +
                                       out.string());
    ASSERT_EQ(rendered.exit_code, 0) << rendered.err;
  }
  YAML::Node job(const std::string& file) const { return YAML::LoadFile((out / file).string()); }
};

TEST_F(CpuOnlyRender, TheJobHasNoGpuField) {
  const YAML::Node pod = job("job-digits-cpu-0.yaml")["spec"]["template"]["spec"];
  EXPECT_FALSE(pod["tolerations"]) << YAML::Dump(pod);
  ASSERT_TRUE(pod["nodeSelector"].IsMap());
  EXPECT_EQ(pod["nodeSelector"].size(), 1u) << YAML::Dump(pod["nodeSelector"]);
  EXPECT_EQ(pod["nodeSelector"]["node.kubernetes.io/instance-type"].as<std::string>(), "n2-standard-8");
  const YAML::Node container = pod["containers"][0];
  const YAML::Node resources = container["resources"];
  EXPECT_FALSE(resources["limits"]["nvidia.com/gpu"]);
  EXPECT_FALSE(resources["requests"]["nvidia.com/gpu"]);
  EXPECT_EQ(resources["limits"]["cpu"].as<std::string>(), "6");
  EXPECT_EQ(resources["requests"]["memory"].as<std::string>(), "24Gi");
  for (const auto& variable : container["env"])
    if (variable["value"]) EXPECT_EQ(variable["value"].as<std::string>().find("nvidia"), std::string::npos);
  // Without cpu: or memory: no resources at all; the default machine type.
  const YAML::Node plain = job("job-plain-cpu-0.yaml")["spec"]["template"]["spec"];
  EXPECT_FALSE(plain["containers"][0]["resources"]) << YAML::Dump(plain["containers"][0]);
  EXPECT_EQ(plain["nodeSelector"]["node.kubernetes.io/instance-type"].as<std::string>(), "e2-standard-4");
  // Spot: the spot selector and toleration, nothing of a GPU.
  const YAML::Node cheap = job("job-cheap-cpu-0.yaml")["spec"]["template"]["spec"];
  EXPECT_EQ(cheap["nodeSelector"]["cloud.google.com/gke-spot"].as<std::string>(), "true");
  ASSERT_EQ(cheap["tolerations"].size(), 1u);
  EXPECT_EQ(cheap["tolerations"][0]["key"].as<std::string>(), "cloud.google.com/gke-spot");
  // A GPU experiment beside it keeps its GPU fields.
  const YAML::Node l4 = job("job-l4-nvidia-l4-0.yaml")["spec"]["template"]["spec"];
  EXPECT_EQ(l4["containers"][0]["resources"]["limits"]["nvidia.com/gpu"].as<int>(), 1);
}

// Field by field against the docs' plain CPU Job: the same kind, the same pod-level fields
// the docs set, and every field the rendered Job adds is one gkebuild adds to any Job
// (GPU or not), none of them GPU.
TEST_F(CpuOnlyRender, FieldByFieldAPlainCpuJob) {
  const YAML::Node docs = YAML::Load(kDocsJob);
  const YAML::Node rendered = job("job-plain-cpu-0.yaml");
  EXPECT_EQ(rendered["apiVersion"].as<std::string>(), docs["apiVersion"].as<std::string>());
  EXPECT_EQ(rendered["kind"].as<std::string>(), docs["kind"].as<std::string>());
  const YAML::Node pod = rendered["spec"]["template"]["spec"];
  EXPECT_EQ(pod["restartPolicy"].as<std::string>(), docs["spec"]["template"]["spec"]["restartPolicy"].as<std::string>());
  EXPECT_TRUE(rendered["spec"]["backoffLimit"].IsScalar());
  const std::set<std::string> pod_fields_added{"nodeSelector", "volumes"};  // the machine type; /dev/shm, checkpoints
  for (const auto& field : pod) {
    const std::string key = field.first.as<std::string>();
    if (docs["spec"]["template"]["spec"][key]) continue;
    EXPECT_TRUE(pod_fields_added.count(key)) << "pod field " << key << " is not in a plain CPU Job";
  }
  const std::set<std::string> container_fields_added{"terminationMessagePath", "terminationMessagePolicy", "env",
                                                     "volumeMounts"};
  for (const auto& field : pod["containers"][0]) {
    const std::string key = field.first.as<std::string>();
    if (docs["spec"]["template"]["spec"]["containers"][0][key]) continue;
    EXPECT_TRUE(container_fields_added.count(key)) << "container field " << key << " is not in a plain CPU Job";
  }
}

TEST_F(CpuOnlyRender, ValidateFindsNothingGpu) {
  std::string files;
  for (const auto& entry : std::filesystem::directory_iterator(out))
    if (entry.path().filename().string().find("-cpu-") != std::string::npos) files += " '" + entry.path().string() + "'";
  const auto checked = run_gkebuild("validate --strict-kinds" + files);
  EXPECT_EQ(checked.exit_code, 0) << checked.out << checked.err;
  EXPECT_EQ(checked.all().find("gpu"), std::string::npos) << checked.all();
  const auto peer = run_command("kubernetes-validate --strict --quiet -k 1.33.0" + files);
  EXPECT_EQ(peer.exit_code, 0) << peer.out << peer.err;
}

// On Autopilot GKE makes the node from the pod's requests: no machine-type selector, and the
// cluster's computeClass (Accelerator, for GPU pods) is not selected; spot stays.
TEST_F(CpuOnlyRender, AutopilotSelectsNoMachineTypeNorTheAcceleratorClass) {
  write_file_atomically(scratch / "autopilot.yaml", kProject + "  autopilot: true\n  computeClass: Accelerator\n");
  const auto rendered = run_gkebuild("render --run-id r1 -f " + (scratch / "autopilot.yaml").string() + " -o " +
                                     (scratch / "auto").string());
  ASSERT_EQ(rendered.exit_code, 0) << rendered.err;
  const YAML::Node plain = YAML::LoadFile((scratch / "auto" / "job-plain-cpu-0.yaml").string())["spec"]["template"]["spec"];
  EXPECT_FALSE(plain["nodeSelector"]) << YAML::Dump(plain);
  EXPECT_FALSE(plain["tolerations"]) << YAML::Dump(plain);
  const YAML::Node cheap = YAML::LoadFile((scratch / "auto" / "job-cheap-cpu-0.yaml").string())["spec"]["template"]["spec"];
  ASSERT_EQ(cheap["nodeSelector"].size(), 1u) << YAML::Dump(cheap);
  EXPECT_EQ(cheap["nodeSelector"]["cloud.google.com/gke-spot"].as<std::string>(), "true");
  const YAML::Node l4 = YAML::LoadFile((scratch / "auto" / "job-l4-nvidia-l4-0.yaml").string())["spec"]["template"]["spec"];
  EXPECT_EQ(l4["nodeSelector"]["cloud.google.com/compute-class"].as<std::string>(), "Accelerator");
}

TEST_F(CpuOnlyRender, AcceleratorFlagIsRefusedForACpuOnlyExperiment) {
  const auto refused = run_gkebuild("render --run-id r1 --accelerator nvidia-l4 -f " +
                                    (scratch / "gkebuild.yaml").string() + " -o " + (scratch / "o2").string() +
                                    " digits");
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_NE(refused.err.find("CPU-only"), std::string::npos) << refused.err;
}

}  // namespace
}  // namespace gkebuild::testing
