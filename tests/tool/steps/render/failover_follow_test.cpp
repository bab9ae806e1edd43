// `fallback:` carried out by the follower (cluster.failover: follow, issue 41 part 2): no
// ComputeClass; the Jobs render as without a fallback (their own accelerator and provisioning,
// pendingTimeout kept); `cluster render` derives a pool for the experiment's own choice and for
// every alternative (gcloud and Terraform); and the Job of every alternative, which `submit
// --dry-run` prints as comments after its Job, passes the same schema check as the Jobs.
#include <gtest/gtest.h>

#include <yaml-cpp/yaml.h>

#include <sstream>

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
    provisioning: spot
    args: ['--lr={{ lr }}']
    sweep: {lr: [1, 2]}
    pendingTimeout: 20m
    fallback:
      - {accelerator: nvidia-h100-80gb, reservation: {name: h100, zone: us-central1-a}}
      - {accelerator: nvidia-a100-80gb, gpus: 4, nodes: 2}
      - {accelerator: nvidia-l4, gpus: 2, provisioning: flex-start}
  plain: {image: train, accelerators: [nvidia-l4], gpus: 2, provisioning: flex-start}
cluster:
  gcpProject: my-project
  location: us-central1
  failover: follow
)";

class FollowRender : public ::testing::Test {
 protected:
  TempDir scratch;
  void SetUp() override { write_file_atomically(scratch / "gkebuild.yaml", kProject); }
  std::string file() const { return (scratch / "gkebuild.yaml").string(); }
};

TEST_F(FollowRender, NoComputeClassAndJobsOfTheirOwnAccelerator) {
  const auto out = scratch / "out";
  const auto rendered = run_gkebuild("render --run-id r1 -f " + file() + " -o " + out.string());
  ASSERT_EQ(rendered.exit_code, 0) << rendered.err;
  for (const auto& entry : std::filesystem::directory_iterator(out))
    EXPECT_FALSE(entry.path().filename().string().starts_with("computeclass-")) << entry.path();
  const YAML::Node job = YAML::LoadFile((out / "job-ddp-nvidia-h100-80gb-0.yaml").string());
  const YAML::Node selector = job["spec"]["template"]["spec"]["nodeSelector"];
  EXPECT_EQ(selector["cloud.google.com/gke-accelerator"].as<std::string>(), "nvidia-h100-80gb");
  EXPECT_EQ(selector["cloud.google.com/gke-spot"].as<std::string>(), "true");
  EXPECT_FALSE(selector["cloud.google.com/compute-class"]);
  EXPECT_EQ(job["metadata"]["annotations"]["gkebuild.io/pending-timeout-seconds"].as<std::string>(), "1200");
  const auto classes = run_gkebuild("render compute-classes -f " + file());
  EXPECT_EQ(classes.exit_code, 2) << classes.err;
  EXPECT_NE(classes.err.find("cluster.failover is follow"), std::string::npos) << classes.err;
  EXPECT_EQ(classes.err.find("did you mean"), std::string::npos) << classes.err;
}

// Each choice gets its pool as an experiment of its own would; plain's L4 flex-start pool is the
// L4 alternative's too.
TEST_F(FollowRender, ClusterRenderDerivesAPoolPerAlternative) {
  const auto script = run_gkebuild("cluster render -f " + file());
  ASSERT_EQ(script.exit_code, 0) << script.err;
  for (const char* pool : {"h100-spot", "h100-res-h100", "a100-80gb", "l4-flex"})
    EXPECT_NE(script.out.find(std::string("node-pools create ") + pool + " \\"), std::string::npos) << pool << script.out;
  EXPECT_EQ(script.out.find("node-pools create l4-flex", script.out.find("node-pools create l4-flex") + 1),
            std::string::npos);
  const auto a100 = script.out.find("node-pools create a100-80gb");
  const std::string a100_pool = script.out.substr(a100, script.out.find("\n\n", a100) - a100);
  EXPECT_NE(a100_pool.find("--machine-type=a2-ultragpu-4g"), std::string::npos) << a100_pool;
  EXPECT_NE(a100_pool.find("--enable-gvnic"), std::string::npos) << a100_pool;
  const auto reserved = script.out.find("node-pools create h100-res-h100");
  EXPECT_NE(script.out.substr(reserved, 400).find("--node-locations=us-central1-a"), std::string::npos);
  EXPECT_EQ(script.out.find("ComputeClass"), std::string::npos) << script.out;
  const auto module = run_gkebuild("cluster render --format terraform -f " + file());
  ASSERT_EQ(module.exit_code, 0) << module.err;
  for (const char* pool : {"h100_spot", "h100_res_h100", "a100_80gb", "l4_flex"})
    EXPECT_NE(module.out.find(std::string("resource \"google_container_node_pool\" \"") + pool + "\""), std::string::npos)
        << pool;
  EXPECT_NE(module.out.find("machine_type    = \"a2-ultragpu-4g\""), std::string::npos) << module.out;
  EXPECT_EQ(module.out.find("ComputeClass"), std::string::npos);
}

// The alternatives' Jobs, taken back out of the comments of the dry-run stream.
std::vector<std::string> commented_jobs(const std::string& stream) {
  std::vector<std::string> jobs;
  std::istringstream in(stream);
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("# fallback ")) {
      jobs.emplace_back();
      inside = true;
    } else if (inside && line.starts_with("#")) {
      jobs.back() += line.substr(line.size() > 1 ? 2 : 1) + "\n";
    } else {
      inside = false;
    }
  }
  return jobs;
}

TEST_F(FollowRender, EveryAlternativesJobPassesTheSchema) {
  const auto dry = run_gkebuild("submit ddp --dry-run -f " + file());
  ASSERT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_NE(dry.err.find("recreated on nvidia-h100-80gb x8 reservation h100, then nvidia-a100-80gb x4 on-demand on 2 "
                         "nodes, then nvidia-l4 x2 flex-start"),
            std::string::npos)
      << dry.err;
  const auto jobs = commented_jobs(dry.out);
  ASSERT_EQ(jobs.size(), 6u) << dry.out;  // 2 points, 3 alternatives each
  std::string files;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const YAML::Node job = YAML::Load(jobs[i]);
    EXPECT_EQ(job["kind"].as<std::string>(), "Job");
    const auto path = scratch / ("alternative-" + std::to_string(i) + ".yaml");
    write_file_atomically(path, jobs[i]);
    files += " " + path.string();
  }
  write_file_atomically(scratch / "stream.yaml", dry.out);
  const auto checked =
      run_gkebuild("validate --strict-kinds --schema-location " + kSchemas + " " + (scratch / "stream.yaml").string() + files);
  EXPECT_EQ(checked.exit_code, 0) << checked.out << checked.err;
  EXPECT_EQ(checked.out.find("gpu-no-accelerator-selector"), std::string::npos) << checked.out;
}

}  // namespace
}  // namespace gkebuild::testing
