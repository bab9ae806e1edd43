// `gkebuild render` of a project with a `kueue:` section: the ResourceFlavors, ClusterQueue
// and LocalQueue, checked by `gkebuild validate` against Kueue's own CRD schemas
// (tests/tool/core/kube/kueue-schemas, from kubernetes-sigs/kueue v0.19.2), and Jobs created suspended
// in their queue.
#include <gtest/gtest.h>

#include <fstream>

#include "base/atomic_file.h"
#include "tests/common/run.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::testing {
namespace {

const std::string kSchemas = std::string(GKEBUILD_SOURCE_ROOT) + "/tests/tool/core/kube/kueue-schemas";

const std::string kProject = R"(apiVersion: gkebuild/v1
project: sweep
registry: registry.test/p
images:
  info: {workload: gpu-info}
experiments:
  probe:
    image: info
    queue: gpu
    accelerators: [nvidia-l4, nvidia-tesla-t4]
    cpu: "4"
kueue:
  queue: gpu
  clusterQueue: team-a
  gpus: {nvidia-l4: 2, nvidia-tesla-t4: 8}
  cpu: 64
)";

class KueueRender : public ::testing::Test {
 protected:
  TempDir scratch;
  std::string project(const std::string& text = kProject) {
    write_file_atomically(scratch / "gkebuild.yaml", text);
    return (scratch / "gkebuild.yaml").string();
  }
  CommandResult validate(const std::string& yaml) {
    write_file_atomically(scratch / "out.yaml", yaml);
    return run_gkebuild("validate --strict-kinds --schema-location " + kSchemas + " " + (scratch / "out.yaml").string());
  }
  static size_t count(const std::string& text, const std::string& part) {
    size_t n = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
    return n;
  }
};

TEST_F(KueueRender, QueueObjectsPassKueuesSchemas) {
  const auto result = run_gkebuild("render kueue -f " + project());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(count(result.out, "kind: ResourceFlavor\n"), 2u);
  EXPECT_EQ(count(result.out, "kind: ClusterQueue\n"), 1u);
  EXPECT_EQ(count(result.out, "kind: LocalQueue\n"), 1u);
  EXPECT_NE(result.out.find("    cloud.google.com/gke-accelerator: \"nvidia-tesla-t4\"\n"), std::string::npos);
  EXPECT_NE(result.out.find("        - name: \"nvidia-l4\"\n          resources:\n            - name: nvidia.com/gpu\n"
                            "              nominalQuota: 2\n            - name: cpu\n              nominalQuota: \"64\"\n"),
            std::string::npos) << result.out;
  EXPECT_NE(result.out.find("  name: \"gpu\"\n  namespace: \"sweep\"\n"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("  clusterQueue: \"team-a\"\n"), std::string::npos) << result.out;
  const auto checked = validate(result.out);
  EXPECT_EQ(checked.exit_code, 0) << checked.out << checked.err;
  // The schemas are really applied: a value Kueue's CRD does not allow fails.
  std::string wrong = result.out;
  wrong.replace(wrong.find("BestEffortFIFO"), 14, "Fifo");
  const auto refused = validate(wrong);
  EXPECT_EQ(refused.exit_code, 1) << refused.out;
  EXPECT_NE(refused.out.find("spec.queueingStrategy"), std::string::npos) << refused.out;
}

TEST_F(KueueRender, WholeProjectHasTheQueueAndSuspendedJobs) {
  const auto result = run_gkebuild("render --run-id r1 -f " + project());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(count(result.out, "kind: Job\n"), 2u);
  EXPECT_EQ(count(result.out, "  suspend: true\n"), 2u);
  EXPECT_EQ(count(result.out, "    kueue.x-k8s.io/queue-name: \"gpu\"\n"), 2u);
  EXPECT_EQ(count(result.out, "kind: LocalQueue\n"), 1u);
  const auto checked = validate(result.out);
  EXPECT_EQ(checked.exit_code, 0) << checked.out << checked.err;
  // Jobs alone (what submit applies) bring no queue objects: those are the cluster admin's.
  const auto jobs = run_gkebuild("render probe --run-id r1 --queue other -f " + project());
  ASSERT_EQ(jobs.exit_code, 0) << jobs.err;
  EXPECT_EQ(count(jobs.out, "kind: ClusterQueue\n"), 0u);
  EXPECT_EQ(count(jobs.out, "    kueue.x-k8s.io/queue-name: \"other\"\n"), 2u);
}

TEST_F(KueueRender, AQueueThatCanNeverAdmitIsBadInput) {
  struct Case {
    std::string from, to, expected;
  };
  const std::vector<Case> cases = {
      {"nvidia-tesla-t4: 8", "nvidia-tesla-t4: 0", "queue 'gpu' has 0 nvidia-tesla-t4 GPUs"},
      {"nvidia-tesla-t4: 8", "nvidia-tesla-t8: 8", "nvidia-tesla-t8"},
      {"    queue: gpu\n", "    queue: Not_A_Name\n", "is not a LocalQueue name"},
      // Kueue admits all `parallelism` pods of an Indexed sweep together: 3 GPUs, the quota is 2.
      {"    cpu: \"4\"\n", "    cpu: \"4\"\n    sweep: {n: [1, 2, 3]}\n    parallelism: 3\n",
       "one of the experiment's Jobs needs 3"},
  };
  for (const auto& test : cases) {
    std::string text = kProject;
    text.replace(text.find(test.from), test.from.size(), test.to);
    const auto result = run_gkebuild("render -f " + project(text));
    EXPECT_EQ(result.exit_code, 2) << test.to << result.err;
    EXPECT_NE(result.err.find(test.expected), std::string::npos) << result.err;
  }
  std::string no_kueue = kProject.substr(0, kProject.find("kueue:\n"));
  const auto result = run_gkebuild("render kueue -f " + project(no_kueue));
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("no kueue: section"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace gkebuild::testing
