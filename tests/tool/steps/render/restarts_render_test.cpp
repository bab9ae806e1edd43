// `restarts:` rendered (issue 41, part 1): a multi-node point as a JobSet restarts every node after
// a disruption, up to `restarts` times, and fails at once on a user error (JobSet failurePolicy,
// checked against JobSet's CRD schema, v0.12.0); GKEBUILD_CHECKPOINT_DIR is the same for every
// restart; an Indexed Job carries its restart budget for whoever recreates it.
#include <gtest/gtest.h>

#include <yaml-cpp/yaml.h>

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
  gcs: {bucket: my-data, mountPath: /data}
experiments:
  ddp: {image: train, accelerators: [nvidia-h100-80gb], gpus: 8, nodes: 2, retriableExitCodes: [42]}
  once: {image: train, accelerators: [nvidia-h100-80gb], gpus: 8, nodes: 2, restarts: 0, backoffLimit: 2}
cluster:
  gcpProject: my-project
  location: us-central1
)";

class RestartsRender : public ::testing::Test {
 protected:
  TempDir scratch;
  std::filesystem::path render(bool jobset) {
    std::string text = kProject;
    if (jobset) text += "  jobset: true\n";
    write_file_atomically(scratch / "gkebuild.yaml", text);
    const auto out = scratch / (jobset ? "jobsets" : "jobs");
    const auto rendered = run_gkebuild("render --run-id r1 -f " + (scratch / "gkebuild.yaml").string() + " -o " + out.string());
    EXPECT_EQ(rendered.exit_code, 0) << rendered.err;
    return out;
  }
};

std::string env_value(const YAML::Node& container, const std::string& name) {
  for (const auto& item : container["env"])
    if (item["name"].as<std::string>() == name) return item["value"].as<std::string>("");
  return "";
}

TEST_F(RestartsRender, AJobSetRestartsEveryNodeAndFailsAtOnceOnAUserError) {
  const auto out = render(true);
  const YAML::Node jobset = YAML::LoadFile((out / "jobset-ddp-nvidia-h100-80gb-0.yaml").string());
  const YAML::Node policy = jobset["spec"]["failurePolicy"];
  EXPECT_EQ(policy["maxRestarts"].as<int>(), 3);  // the default for nodes > 1
  ASSERT_EQ(policy["rules"].size(), 1u);
  EXPECT_EQ(policy["rules"][0]["action"].as<std::string>(), "FailJobSet");
  EXPECT_EQ(policy["rules"][0]["onJobFailureReasons"][0].as<std::string>(), "PodFailurePolicy");
  const YAML::Node job = jobset["spec"]["replicatedJobs"][0]["template"]["spec"];
  EXPECT_EQ(job["backoffLimit"].as<int>(), 0);  // one disrupted pod fails the Job: the JobSet restarts all
  const YAML::Node rules = job["podFailurePolicy"]["rules"];
  ASSERT_EQ(rules.size(), 2u);
  EXPECT_EQ(rules[0]["action"].as<std::string>(), "Count");  // before the exit codes: a preempted pod's 143 is no user error
  EXPECT_EQ(rules[0]["onPodConditions"][0]["type"].as<std::string>(), "DisruptionTarget");
  EXPECT_EQ(rules[1]["action"].as<std::string>(), "FailJob");
  EXPECT_EQ(rules[1]["onExitCodes"]["operator"].as<std::string>(), "NotIn");
  // Exit code 42 (retriableExitCodes) is no user error: it fails the Job by its backoffLimit, and the JobSet restarts.
  EXPECT_EQ(rules[1]["onExitCodes"]["values"].as<std::vector<int>>(), (std::vector<int>{0, 42}));
  // The checkpoint folder names the JobSet, nothing of the attempt: every restart finds it.
  const YAML::Node container = job["template"]["spec"]["containers"][0];
  EXPECT_EQ(env_value(container, "GKEBUILD_CHECKPOINT_DIR"), "/data/checkpoints/r1/ddp-h100-0-r1");
  // restarts: 0 keeps the earlier JobSet: no restart, preemption ignored, the Job's own retries.
  const YAML::Node once = YAML::LoadFile((out / "jobset-once-nvidia-h100-80gb-0.yaml").string());
  EXPECT_EQ(once["spec"]["failurePolicy"]["maxRestarts"].as<int>(), 0);
  EXPECT_FALSE(once["spec"]["failurePolicy"]["rules"]);
  const YAML::Node once_job = once["spec"]["replicatedJobs"][0]["template"]["spec"];
  EXPECT_EQ(once_job["backoffLimit"].as<int>(), 2);
  EXPECT_EQ(once_job["podFailurePolicy"]["rules"][0]["action"].as<std::string>(), "Ignore");
  EXPECT_EQ(once_job["podFailurePolicy"]["rules"][1]["onExitCodes"]["values"].as<std::vector<int>>(), std::vector<int>{0});
  // Both pass JobSet's own CRD schema (v0.12.0), strictly.
  const auto checked = run_gkebuild("validate --strict-kinds --schema-location " + kSchemas + " " +
                                    (out / "jobset-ddp-nvidia-h100-80gb-0.yaml").string() + " " +
                                    (out / "jobset-once-nvidia-h100-80gb-0.yaml").string());
  EXPECT_EQ(checked.exit_code, 0) << checked.out << checked.err;
}

TEST_F(RestartsRender, AnIndexedJobCarriesItsRestartBudget) {
  const auto out = render(false);
  const YAML::Node job = YAML::LoadFile((out / "job-ddp-h100-0-r1.yaml").string());
  EXPECT_EQ(job["metadata"]["annotations"]["gkebuild.io/restarts"].as<std::string>(), "3");
  // A disrupted rank fails the whole Job (FailJob), and so does every non-zero exit: the follower
  // tells a disruption or a retriable code (42) from a user error by the Failed condition's message
  // and recreates the Job (a gang restart).
  EXPECT_EQ(job["spec"]["podFailurePolicy"]["rules"][0]["action"].as<std::string>(), "FailJob");
  EXPECT_EQ(job["spec"]["podFailurePolicy"]["rules"][1]["onExitCodes"]["values"].as<std::vector<int>>(),
            (std::vector<int>{0}));
  EXPECT_EQ(env_value(job["spec"]["template"]["spec"]["containers"][0], "GKEBUILD_CHECKPOINT_DIR"),
            "/data/checkpoints/r1/ddp-h100-0-r1");
  const YAML::Node once = YAML::LoadFile((out / "job-once-h100-0-r1.yaml").string());
  EXPECT_FALSE(once["metadata"]["annotations"]["gkebuild.io/restarts"]);
  // Without restarts the Job controller replaces only a preempted pod (Ignore), as before.
  EXPECT_EQ(once["spec"]["podFailurePolicy"]["rules"][0]["action"].as<std::string>(), "Ignore");
}

}  // namespace
}  // namespace gkebuild::testing
