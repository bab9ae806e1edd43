// `gkebuild cluster up|down` against a stand-in gcloud (fake_gcloud.sh: records each call,
// answers describe and list from files): up creates only what is missing, down deletes
// only what carries created-by=gkebuild, --dry-run changes nothing, and a failing gcloud
// stops with its message.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "cluster_projects.h"
#include "tests/common/run.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::testing {
namespace {

class ClusterUpDown : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(dir / "bin");
    std::filesystem::create_symlink(GKEBUILD_SOURCE_ROOT "/tests/tool/steps/cluster/fake_gcloud.sh", dir / "bin" / "gcloud");
  }

  CommandResult gkebuild(const std::string& arguments, const std::string& project = kDerivedPools) {
    const auto file = dir.write("gkebuild.yaml", project);
    std::filesystem::remove(dir / "calls");
    return run_command("PATH=" + shell_quoted((dir / "bin").string()) + ":\"$PATH\" FAKE_GCLOUD_DIR=" +
                       shell_quoted(dir.path().string()) + " " + gkebuild_binary() + " cluster " + arguments + " -f " +
                       shell_quoted(file.string()));
  }

  // The gcloud container calls of the last command, one per line, without the --project/--location
  // flags (the quota questions are `compute` calls, left out unless asked for).
  std::vector<std::string> calls(bool compute = false) const {
    std::ifstream in(dir / "calls");
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
      if (line.starts_with("compute ") && !compute) continue;
      for (const char* flag : {" --project=my-project", " --location=us-central1"})
        if (auto at = line.find(flag); at != std::string::npos) line.erase(at, std::string(flag).size());
      lines.push_back(line);
    }
    return lines;
  }

  static std::string pool(const std::string& name, const std::string& machine, const std::string& accelerator,
                          bool ours) {
    return R"({"name": ")" + name + R"(", "config": {"machineType": ")" + machine + R"(", "accelerators": [{"acceleratorType": ")" +
           accelerator + R"("}], "resourceLabels": )" + (ours ? R"({"created-by": "gkebuild"})" : "{}") + "}}";
  }

  void cluster_exists(bool ours, const std::vector<std::string>& pools) {
    dir.write("cluster.json", std::string(R"({"name": "demo", "resourceLabels": )") +
                                  (ours ? R"({"created-by": "gkebuild"})" : R"({"team": "ml"})") + "}");
    std::string list = "[";
    for (const auto& item : pools) list += (list.size() > 1 ? "," : "") + item;
    dir.write("pools.json", list + "]");
  }

  TempDir dir;
};

TEST_F(ClusterUpDown, UpOnAnEmptyProjectCreatesTheClusterAndEveryPool) {
  const auto up = gkebuild("up");
  ASSERT_EQ(up.exit_code, 0) << up.all();
  const auto made = calls();
  ASSERT_EQ(made.size(), 4u) << up.out;
  EXPECT_EQ(made[0], "container clusters describe demo --format=json");
  EXPECT_TRUE(made[1].starts_with("container clusters create demo --release-channel=regular")) << made[1];
  EXPECT_TRUE(made[2].starts_with("container node-pools create l4-spot --cluster=demo")) << made[2];
  EXPECT_TRUE(made[3].starts_with("container node-pools create t4 --cluster=demo")) << made[3];
  EXPECT_NE(up.out.find("+ gcloud container node-pools create t4 --cluster=demo --project=my-project "
                        "--location=us-central1 --machine-type=n1-standard-4"),
            std::string::npos)
      << up.out;
  EXPECT_NE(up.out.find("cluster demo is up"), std::string::npos);
}

TEST_F(ClusterUpDown, UpWarnsWhenQuotaCannotCoverThePoolsAtTheirMaximum) {
  // l4-spot and t4, 4 nodes of 1 GPU each at most: 8 GPUs in all.
  dir.write("project-info.json", R"({"quotas": [{"metric": "GPUS_ALL_REGIONS", "limit": 4.0, "usage": 1.0}]})");
  dir.write("regions.json", R"({"quotas": [{"metric": "PREEMPTIBLE_NVIDIA_L4_GPUS", "limit": 16.0, "usage": 0.0},
                                          {"metric": "NVIDIA_T4_GPUS", "limit": 0.0, "usage": 0.0}]})");
  const auto up = gkebuild("up --dry-run");
  ASSERT_EQ(up.exit_code, 0) << up.all();
  EXPECT_EQ(calls(true)[1], "compute regions describe us-central1 --format=json");
  EXPECT_NE(up.out.find("quota: GPUS_ALL_REGIONS (all regions) leaves 3 GPUs, and pools l4-spot, t4 need 8 at their "
                        "maximum: request more"),
            std::string::npos) << up.out;
  EXPECT_NE(up.out.find("quota: NVIDIA_T4_GPUS in us-central1 leaves 0 GPUs, and pools t4 need 4"), std::string::npos)
      << up.out;
  EXPECT_EQ(up.out.find("PREEMPTIBLE_NVIDIA_L4_GPUS"), std::string::npos) << up.out;  // 16 free: enough
}

TEST_F(ClusterUpDown, UpAgainCreatesOnlyWhatIsMissing) {
  cluster_exists(true, {pool("default-pool", "e2-standard-4", "", true), pool("l4-spot", "g2-standard-8", "nvidia-l4", true)});
  const auto up = gkebuild("up");
  ASSERT_EQ(up.exit_code, 0) << up.all();
  const auto made = calls();
  ASSERT_EQ(made.size(), 3u) << up.out;
  EXPECT_EQ(made[1], "container node-pools list --cluster=demo --format=json");
  EXPECT_TRUE(made[2].starts_with("container node-pools create t4 ")) << made[2];
  // An existing pool that differs from the project is named, not changed.
  EXPECT_NE(up.out.find("node pool l4-spot exists as g2-standard-8 with nvidia-l4, not g2-standard-4 with nvidia-l4: "
                        "kept as it is"),
            std::string::npos)
      << up.out;
}

TEST_F(ClusterUpDown, DryRunOnlyDescribes) {
  const auto up = gkebuild("up --dry-run");
  ASSERT_EQ(up.exit_code, 0) << up.all();
  EXPECT_EQ(calls().size(), 1u);
  EXPECT_NE(up.out.find("would run: gcloud container clusters create demo"), std::string::npos) << up.out;
  EXPECT_NE(up.out.find("would run: gcloud container node-pools create t4"), std::string::npos) << up.out;
  cluster_exists(true, {pool("l4-spot", "g2-standard-4", "nvidia-l4", true), pool("t4", "n1-standard-4", "nvidia-tesla-t4", true)});
  const auto down = gkebuild("down --dry-run");
  ASSERT_EQ(down.exit_code, 0) << down.all();
  EXPECT_EQ(calls().size(), 2u);  // describe, list
  EXPECT_NE(down.out.find("would run: gcloud container clusters delete demo --project=my-project --location=us-central1 --quiet"),
            std::string::npos)
      << down.out;
}

TEST_F(ClusterUpDown, DownDeletesTheClusterItCreated) {
  cluster_exists(true, {pool("default-pool", "e2-standard-4", "", false), pool("t4", "n1-standard-4", "nvidia-tesla-t4", true)});
  const auto down = gkebuild("down");
  ASSERT_EQ(down.exit_code, 0) << down.all();
  const auto made = calls();
  ASSERT_EQ(made.size(), 3u);
  EXPECT_EQ(made[2], "container clusters delete demo --quiet");
}

TEST_F(ClusterUpDown, DownKeepsWhatItDidNotCreate) {
  // Our cluster holding someone else's pool: only our GPU pool goes.
  cluster_exists(true, {pool("t4", "n1-standard-4", "nvidia-tesla-t4", true), pool("team-pool", "n2-standard-8", "", false)});
  auto down = gkebuild("down");
  ASSERT_EQ(down.exit_code, 0) << down.all();
  auto made = calls();
  ASSERT_EQ(made.size(), 3u);
  EXPECT_EQ(made[2], "container node-pools delete t4 --cluster=demo --quiet");
  EXPECT_NE(down.out.find("cluster demo kept: it holds node pools gkebuild did not create (team-pool)"), std::string::npos)
      << down.out;
  // Someone else's cluster: only the pools gkebuild added to it.
  cluster_exists(false, {pool("default-pool", "e2-standard-4", "", false), pool("l4-spot", "g2-standard-4", "nvidia-l4", true)});
  down = gkebuild("down");
  ASSERT_EQ(down.exit_code, 0) << down.all();
  made = calls();
  ASSERT_EQ(made.size(), 3u);
  EXPECT_EQ(made[2], "container node-pools delete l4-spot --cluster=demo --quiet");
  EXPECT_NE(down.out.find("cluster demo kept: gkebuild did not create it (no created-by=gkebuild label)"), std::string::npos)
      << down.out;
}

TEST_F(ClusterUpDown, DownOfAMissingClusterDoesNothing) {
  const auto down = gkebuild("down");
  ASSERT_EQ(down.exit_code, 0) << down.all();
  EXPECT_EQ(calls().size(), 1u);
  EXPECT_NE(down.out.find("cluster demo does not exist in my-project (us-central1): nothing to delete"), std::string::npos);
}

TEST_F(ClusterUpDown, AFailingCreateStopsWithGcloudsMessage) {
  std::string project = kEveryPool;
  project.replace(project.find("l4-spot:"), 8, "fail-me:");
  const auto up = gkebuild("up", project);
  EXPECT_EQ(up.exit_code, 1) << up.all();
  EXPECT_NE(up.err.find("failed:\nERROR: (gcloud.container.node-pools.create) Quota 'NVIDIA_L4_GPUS' exceeded."),
            std::string::npos)
      << up.err;
  EXPECT_EQ(calls().size(), 3u);  // describe, create cluster, the failed pool: nothing after it
}


// l4 and t4 pools in us-central1-f, which the catalog lists for T4 but not for L4.
std::string in_zone_f() { return kDerivedPools + "  nodeLocations: [us-central1-f]\n"; }

TEST_F(ClusterUpDown, RenderWarnsOfAZoneWithoutThePoolsGpu) {
  const auto rendered = gkebuild("render", in_zone_f());
  ASSERT_EQ(rendered.exit_code, 0) << rendered.all();
  EXPECT_NE(rendered.err.find("warning: node pool l4-spot: nvidia-l4 is not offered in us-central1-f by the catalog ("),
            std::string::npos) << rendered.err;
  EXPECT_NE(rendered.err.find("zones of us-central1 that offer it: us-central1-a, us-central1-b, us-central1-c"),
            std::string::npos) << rendered.err;
  EXPECT_EQ(rendered.err.find("node pool t4:"), std::string::npos) << rendered.err;  // T4 is in us-central1-f
  EXPECT_EQ(gkebuild("render").err.find("warning"), std::string::npos);            // GKE picks the zones
}

TEST_F(ClusterUpDown, UpRefusesAPoolWhoseZoneLacksItsGpuBeforeCreatingAnything) {
  dir.write("accelerator-types.json", R"([
    {"name": "nvidia-l4", "zone": "https://www.googleapis.com/compute/v1/projects/my-project/zones/us-central1-a"},
    {"name": "nvidia-l4", "zone": "us-central1-b"},
    {"name": "nvidia-tesla-t4", "zone": "us-central1-f"}])");
  const auto up = gkebuild("up", in_zone_f());
  EXPECT_EQ(up.exit_code, 1) << up.all();
  EXPECT_NE(up.err.find("node pool l4-spot: nvidia-l4 is not offered in us-central1-f (gcloud compute accelerator-types "
                        "list); zones of us-central1 that offer it: us-central1-a, us-central1-b"),
            std::string::npos) << up.all();
  const auto made = calls(true);
  ASSERT_EQ(made.size(), 4u) << up.all();  // describe, 2 quota, the listing: nothing created
  EXPECT_EQ(made[3], "compute accelerator-types list --filter=name~^(nvidia-l4|nvidia-tesla-t4)$ --format=json");
  // The same zones with the GPU there: the pools are made.
  dir.write("accelerator-types.json", R"([{"name": "nvidia-l4", "zone": "us-central1-f"},
                                          {"name": "nvidia-tesla-t4", "zone": "us-central1-f"}])");
  const auto again = gkebuild("up", in_zone_f());
  ASSERT_EQ(again.exit_code, 0) << again.all();
  EXPECT_EQ(calls().size(), 4u);  // describe, create, 2 pools
  // A listing gcloud refuses is a note, not a stop.
  std::filesystem::remove(dir / "accelerator-types.json");
  const auto unchecked = gkebuild("up --dry-run", in_zone_f());
  ASSERT_EQ(unchecked.exit_code, 0) << unchecked.all();
  EXPECT_NE(unchecked.out.find("accelerator zones not checked: "), std::string::npos) << unchecked.out;
}

}  // namespace
}  // namespace gkebuild::testing
