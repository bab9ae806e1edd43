// `fallback:` rendered (issue 41, part 2, GKE's own failover): one custom ComputeClass per
// experiment with a fallback, its priorities in the file's order (the experiment's own choice
// first), and that experiment's Jobs selecting the class instead of an accelerator.
//
// Schema: the ComputeClass CRD in tests/tool/core/kube/kueue-schemas/cloud.google.com comes from a dump of a
// GKE cluster's CRD (see that folder's README); it predates `flexStart` and `reservations` in a
// rule, so rules of those kinds are checked key by key against the fields GKE's CRD reference page
// documents (kDocumentedRuleKeys), and the rest of the class against the upstream schema.
#include <gtest/gtest.h>

#include <yaml-cpp/yaml.h>

#include <fstream>
#include <set>

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
experiments:
  ddp:
    image: train
    accelerators: [nvidia-h100-80gb]
    gpus: 8
    nodes: 2
    provisioning: spot
    fallback:
      - {accelerator: nvidia-h100-80gb, reservation: projects/owner-proj/reservations/h100}
      - {accelerator: nvidia-a100-80gb, gpus: 8}
  tune:
    image: train
    accelerators: [nvidia-l4]
    pendingTimeout: 30m
    fallback:
      - {accelerator: nvidia-l4, provisioning: flex-start}
      - {accelerator: nvidia-tesla-t4, provisioning: spot}
  cheap:
    image: train
    accelerators: [nvidia-l4]
    provisioning: spot
    fallback: [{accelerator: nvidia-l4}]
  plain: {image: train, accelerators: [nvidia-l4]}
cluster:
  gcpProject: my-project
  location: us-central1
)";

// The keys of a priority rule that GKE's ComputeClass reference
// (https://cloud.google.com/kubernetes-engine/docs/reference/crds/computeclass) documents, and of
// the objects gkebuild fills in: gpu {type, count, driverVersion}, flexStart {enabled,
// nodeRecycling}, reservations {affinity, specific [{name, project, reservationBlock}]}.
const std::set<std::string> kDocumentedRuleKeys{
    "machineFamily", "machineType", "minCores", "minMemoryGb", "spot", "gpu", "tpu", "nodepools", "storage",
    "reservations", "flexStart", "maxRunDurationSeconds", "placement", "location", "nodeSystemConfig"};
const std::set<std::string> kDocumentedGpuKeys{"type", "count", "driverVersion"};
const std::set<std::string> kDocumentedFlexStartKeys{"enabled", "nodeRecycling"};
const std::set<std::string> kDocumentedReservationKeys{"affinity", "specific"};
const std::set<std::string> kDocumentedSpecificKeys{"name", "project", "reservationBlock"};

void expect_documented(const YAML::Node& map, const std::set<std::string>& keys, const std::string& where) {
  for (const auto& entry : map)
    EXPECT_TRUE(keys.count(entry.first.as<std::string>())) << where << ": " << entry.first.as<std::string>();
}

class FallbackRender : public ::testing::Test {
 protected:
  TempDir scratch;
  std::filesystem::path out = scratch / "out";
  void SetUp() override {
    write_file_atomically(scratch / "gkebuild.yaml", kProject);
    const auto rendered = run_gkebuild("render --run-id r1 -f " + file() + " -o " + out.string());
    ASSERT_EQ(rendered.exit_code, 0) << rendered.err;
  }
  std::string file() const { return (scratch / "gkebuild.yaml").string(); }
  YAML::Node object(const std::string& name) const { return YAML::LoadFile((out / name).string()); }
  CommandResult validate(const std::string& files) const {
    return run_gkebuild("validate --strict-kinds --schema-location " + kSchemas + " " + files);
  }
};

TEST_F(FallbackRender, ComputeClassPrioritiesInTheFilesOrder) {
  const YAML::Node ddp = object("computeclass-big-ddp.yaml");
  EXPECT_EQ(ddp["apiVersion"].as<std::string>(), "cloud.google.com/v1");
  EXPECT_EQ(ddp["metadata"]["labels"]["gkebuild.io/experiment"].as<std::string>(), "ddp");
  const YAML::Node spec = ddp["spec"];
  EXPECT_TRUE(spec["nodePoolAutoCreation"]["enabled"].as<bool>());
  EXPECT_EQ(spec["whenUnsatisfiable"].as<std::string>(), "DoNotScaleUp");
  const YAML::Node rules = spec["priorities"];
  ASSERT_EQ(rules.size(), 3u);
  // The experiment's own choice first: H100 spot, 8 GPUs per node.
  EXPECT_EQ(rules[0]["gpu"]["type"].as<std::string>(), "nvidia-h100-80gb");
  EXPECT_EQ(rules[0]["gpu"]["count"].as<int>(), 8);
  EXPECT_TRUE(rules[0]["spot"].as<bool>());
  // Then H100 from a shared reservation (its owner project given), then A100-80GB on-demand.
  EXPECT_EQ(rules[1]["reservations"]["affinity"].as<std::string>(), "Specific");
  EXPECT_EQ(rules[1]["reservations"]["specific"][0]["name"].as<std::string>(), "h100");
  EXPECT_EQ(rules[1]["reservations"]["specific"][0]["project"].as<std::string>(), "owner-proj");
  EXPECT_FALSE(rules[1]["spot"]);
  EXPECT_EQ(rules[2]["gpu"]["type"].as<std::string>(), "nvidia-a100-80gb");
  EXPECT_FALSE(rules[2]["spot"].as<bool>());
  const YAML::Node tune = object("computeclass-big-tune.yaml")["spec"]["priorities"];
  ASSERT_EQ(tune.size(), 3u);
  EXPECT_FALSE(tune[0]["spot"].as<bool>());  // on-demand, the experiment's own
  EXPECT_TRUE(tune[1]["flexStart"]["enabled"].as<bool>());
  EXPECT_EQ(tune[2]["gpu"]["type"].as<std::string>(), "nvidia-tesla-t4");
  EXPECT_EQ(tune[2]["gpu"]["count"].as<int>(), 1);
  EXPECT_TRUE(tune[2]["spot"].as<bool>());
  // No class for an experiment without a fallback.
  EXPECT_FALSE(std::filesystem::exists(out / "computeclass-big-plain.yaml"));
}

TEST_F(FallbackRender, JobsSelectTheClassNotAnAccelerator) {
  const YAML::Node pod = object("job-ddp-h100-0-r1.yaml")["spec"]["template"]["spec"];
  const YAML::Node selector = pod["nodeSelector"];
  ASSERT_EQ(selector.size(), 1u);
  EXPECT_EQ(selector["cloud.google.com/compute-class"].as<std::string>(), "big-ddp");
  std::set<std::string> tolerated;
  for (const auto& toleration : pod["tolerations"]) tolerated.insert(toleration["key"].as<std::string>());
  EXPECT_EQ(tolerated, (std::set<std::string>{"nvidia.com/gpu", "cloud.google.com/gke-spot"}));
  const YAML::Node tune = object("job-tune-nvidia-l4-0.yaml")["spec"]["template"]["spec"];
  EXPECT_EQ(tune["nodeSelector"].size(), 1u);
  tolerated.clear();
  for (const auto& toleration : tune["tolerations"]) tolerated.insert(toleration["key"].as<std::string>());
  EXPECT_TRUE(tolerated.count("cloud.google.com/gke-flex-start"));
  EXPECT_TRUE(tolerated.count("cloud.google.com/gke-spot"));
  EXPECT_EQ(object("job-tune-nvidia-l4-0.yaml")["metadata"]["annotations"]["gkebuild.io/pending-timeout-seconds"].as<std::string>(),
            "1800");
  EXPECT_FALSE(object("job-plain-nvidia-l4-0.yaml")["metadata"]["annotations"]["gkebuild.io/pending-timeout-seconds"]);
  // pendingTimeout (default 15m) is recorded for the follower-driven fallback.
  EXPECT_EQ(object("job-ddp-h100-0-r1.yaml")["metadata"]["annotations"]["gkebuild.io/pending-timeout-seconds"].as<std::string>(),
            "900");
  // An experiment without a fallback keeps its accelerator selector.
  const YAML::Node plain = object("job-plain-nvidia-l4-0.yaml")["spec"]["template"]["spec"]["nodeSelector"];
  EXPECT_EQ(plain["cloud.google.com/gke-accelerator"].as<std::string>(), "nvidia-l4");
  EXPECT_FALSE(plain["cloud.google.com/compute-class"]);
}

TEST_F(FallbackRender, ClassesCheckedAgainstTheSchemaAndTheDocumentedFields) {
  // Every rule's keys are ones GKE documents.
  for (const char* name : {"computeclass-big-ddp.yaml", "computeclass-big-tune.yaml", "computeclass-big-cheap.yaml"})
    for (const auto& rule : object(name)["spec"]["priorities"]) {
      expect_documented(rule, kDocumentedRuleKeys, name);
      expect_documented(rule["gpu"], kDocumentedGpuKeys, name);
      if (rule["flexStart"]) expect_documented(rule["flexStart"], kDocumentedFlexStartKeys, name);
      if (rule["reservations"]) {
        expect_documented(rule["reservations"], kDocumentedReservationKeys, name);
        for (const auto& specific : rule["reservations"]["specific"])
          expect_documented(specific, kDocumentedSpecificKeys, name);
      }
    }
  // A class of spot and on-demand rules passes the upstream schema whole, strictly; so do the
  // Jobs and Services of the experiments with a fallback.
  std::string files = " " + (out / "computeclass-big-cheap.yaml").string();
  for (const auto& entry : std::filesystem::directory_iterator(out))
    if (entry.path().filename().string().starts_with("job-") || entry.path().filename().string().starts_with("service-"))
      files += " " + entry.path().string();
  const auto checked = validate(files);
  EXPECT_EQ(checked.exit_code, 0) << checked.out << checked.err;
  EXPECT_EQ(checked.out.find("gpu-no-accelerator-selector"), std::string::npos) << checked.out;  // the class names the GPU
  // The schema is applied: a misspelt rule key fails.
  std::ifstream in(out / "computeclass-big-cheap.yaml");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  text.replace(text.find("spot:"), 5, "spto:");
  write_file_atomically(scratch / "wrong.yaml", text);
  const auto refused = validate((scratch / "wrong.yaml").string());
  EXPECT_EQ(refused.exit_code, 1) << refused.out << refused.err;
  EXPECT_NE(refused.out.find("unknown field \"spto\""), std::string::npos) << refused.out;
}

TEST_F(FallbackRender, TheComputeClassesTarget) {
  const auto only = run_gkebuild("render compute-classes -f " + file());
  ASSERT_EQ(only.exit_code, 0) << only.err;
  EXPECT_NE(only.out.find("name: \"big-tune\""), std::string::npos);
  EXPECT_EQ(only.out.find("kind: Job"), std::string::npos);
  // submit renders Jobs alone: a ComputeClass is the cluster admin's, like the Kueue objects.
  const auto jobs = run_gkebuild("render experiment/tune -f " + file());
  EXPECT_EQ(jobs.out.find("kind: ComputeClass"), std::string::npos);
  write_file_atomically(scratch / "none.yaml", "apiVersion: gkebuild/v1\nproject: p\nregistry: r.test/p\nimages:\n"
                                               "  t: {workload: gpu-info}\nexperiments:\n  e: {image: t, accelerators: [nvidia-l4]}\n");
  const auto none = run_gkebuild("render compute-classes -f " + (scratch / "none.yaml").string());
  EXPECT_EQ(none.exit_code, 2) << none.err;
  EXPECT_NE(none.err.find("no experiment has a fallback"), std::string::npos) << none.err;
}

// `gkebuild cluster render`: the gcloud script applies the classes once it has credentials; the
// Terraform module, which holds no Kubernetes objects, names them and says how to apply them.
TEST_F(FallbackRender, ClusterRenderCarriesTheClasses) {
  const auto script = run_gkebuild("cluster render -f " + file());
  ASSERT_EQ(script.exit_code, 0) << script.err;
  const auto credentials = script.out.find("get-credentials");
  const auto apply = script.out.find("kubectl apply -f - <<'GKEBUILD_COMPUTE_CLASSES'\napiVersion: cloud.google.com/v1\n");
  ASSERT_NE(apply, std::string::npos) << script.out;
  EXPECT_LT(credentials, apply);
  EXPECT_NE(script.out.find("name: \"big-ddp\""), std::string::npos);
  EXPECT_TRUE(script.out.ends_with("whenUnsatisfiable: DoNotScaleUp\nGKEBUILD_COMPUTE_CLASSES\n")) << script.out;
  // No pool is made for the experiments with a fallback: GKE creates theirs (only plain's l4).
  EXPECT_NE(script.out.find("node-pools create l4 "), std::string::npos) << script.out;
  EXPECT_EQ(script.out.find("node-pools create h100"), std::string::npos) << script.out;
  const auto module = run_gkebuild("cluster render --format terraform -f " + file());
  ASSERT_EQ(module.exit_code, 0) << module.err;
  EXPECT_NE(module.out.find("ComputeClasses \"big-ddp\" \"big-tune\" \"big-cheap\""), std::string::npos) << module.out;
  EXPECT_NE(module.out.find("gkebuild render compute-classes"), std::string::npos);
}

}  // namespace
}  // namespace gkebuild::testing
