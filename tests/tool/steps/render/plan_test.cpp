// Planning a render without the template engine: sweeps, seeds, targets, names.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <set>

#include "base/source_error.h"
#include "tool/core/project/project.h"
#include "tool/steps/render/names.h"
#include "tool/steps/render/plan.h"
#include "tool/steps/render/sweep.h"

namespace gkebuild::render {
namespace {

using json = nlohmann::ordered_json;

const std::filesystem::path kExamples = std::filesystem::path(GKEBUILD_SOURCE_ROOT) / "examples";

// Leaves project strings as written, recording how many were expanded.
struct Recorder {
  std::atomic<int> calls = 0;  // plan_render may expand on several threads
  TextExpander expander() {
    return [this](const std::string& text, const json&, const std::string&) {
      ++calls;
      return text;
    };
  }
};

std::vector<RenderItem> plan(const std::string& example, RenderOptions options = {}) {
  if (options.run_id.empty()) options.run_id = "r1";
  Recorder recorder;
  return plan_render(project::load_project(kExamples / example / "gkebuild.yaml"), options,
                     catalog::Catalog::builtin(), recorder.expander());
}

int count(const std::vector<RenderItem>& items, const std::string& template_name) {
  int n = 0;
  for (const auto& item : items) n += item.template_name == template_name;
  return n;
}

TEST(SweepPoints, GridProductLastAxisFastest) {
  std::vector<project::SweepAxis> axes{{"n", {1, 2}}, {"p", {"a", "b", "c"}}};
  const auto points = sweep_points(axes);
  ASSERT_EQ(points.size(), 6u);
  EXPECT_EQ(points[0], (json{{"n", 1}, {"p", "a"}}));
  EXPECT_EQ(points[1], (json{{"n", 1}, {"p", "b"}}));
  EXPECT_EQ(points[5], (json{{"n", 2}, {"p", "c"}}));
  EXPECT_EQ(sweep_points({}).size(), 1u);
}

TEST(Plan, GemmCompareIsTheGridTimesTheAccelerators) {
  const auto items = plan("gemm-compare");
  EXPECT_EQ(count(items, "job.yaml.j2"), 2 * 3 * 3);  // n x precision x accelerators
  EXPECT_EQ(count(items, "namespace.yaml.j2"), 1);
  EXPECT_EQ(count(items, "Dockerfile.j2"), 0);  // only with -o DIR or an image target
  EXPECT_EQ(items.front().template_name, "namespace.yaml.j2");
  const auto& first_job = items[1];
  EXPECT_EQ(first_job.file_name, "job-gemm-nvidia-l4-0.yaml");
  EXPECT_EQ(first_job.full_context()["name"], "gemm-l4-0-r1");
  EXPECT_EQ(first_job.full_context()["accelerator"]["label"], "nvidia-l4");
  EXPECT_EQ(first_job.full_context()["point"], (json{{"n", 4096}, {"precision", "fp32"}}));
  EXPECT_EQ(first_job.full_context()["spot"], true);
  EXPECT_EQ(first_job.full_context()["labels"]["gkebuild.io/run"], "r1");
  EXPECT_EQ(first_job.full_context()["image"],
            "us-central1-docker.pkg.dev/my-gcp-project/experiments/gemm-compare-gemm:latest");
}

TEST(Plan, SeedsBecomeOneIndexedJobPerPoint) {
  const auto items = plan("mnist");
  EXPECT_EQ(count(items, "job.yaml.j2"), 2 * 4);  // lr x accelerators, seeds inside each Job
  EXPECT_EQ(count(items, "driver-installer-cos.yaml.j2"), 1);
  EXPECT_EQ(count(items, "nfs.yaml.j2"), 1);
  for (const auto& item : items) {
    if (item.template_name != "job.yaml.j2") continue;
    EXPECT_EQ(item.full_context()["indexed"], true);
    EXPECT_EQ(item.full_context()["job"]["completions"], 3);
    EXPECT_EQ(item.full_context()["storage"]["claim"], "nfs");
  }
}

TEST(Plan, PodsGetOnePerSeed) {
  RenderOptions options;
  options.targets = {"pod/train"};
  const auto items = plan("mnist", options);
  EXPECT_EQ(count(items, "pod.yaml.j2"), 2 * 4 * 3);
  EXPECT_EQ(count(items, "job.yaml.j2"), 0);
}

TEST(Plan, EachPodOfASeededExperimentIsNamedForItsSeed) {
  RenderOptions options;
  options.targets = {"pod/train"};
  std::vector<std::string> files;
  for (const auto& item : plan("mnist", options))
    if (item.template_name == "pod.yaml.j2") files.push_back(item.file_name);
  ASSERT_EQ(files.size(), 24u);
  EXPECT_EQ(files[0], "pod-train-nvidia-tesla-t4-0-seed0.yaml");
  EXPECT_EQ(files[2], "pod-train-nvidia-tesla-t4-0-seed2.yaml");
  EXPECT_EQ(files[3], "pod-train-nvidia-tesla-t4-1-seed0.yaml");
}

TEST(Plan, AcceleratorOverrideAndImageReference) {
  RenderOptions options;
  options.accelerators = {"nvidia-h100-80gb"};
  options.image_references = {{"gemm", "registry.example/gemm@sha256:abc"}};
  const auto items = plan("gemm-compare", options);
  EXPECT_EQ(count(items, "job.yaml.j2"), 6);
  EXPECT_EQ(items[1].full_context()["accelerator"]["cuda_arch"], "sm_90");
  EXPECT_EQ(items[1].full_context()["image"], "registry.example/gemm@sha256:abc");
}

TEST(Plan, TargetsSelectDockerfilesAndReportTypos) {
  RenderOptions options;
  options.targets = {"image/gemm"};
  const auto items = plan("gemm-compare", options);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].kind, OutputKind::Dockerfile);
  EXPECT_EQ(items[0].full_context()["image"]["entrypoint"], json::array({"/opt/gkebuild/bin/gemm-bench"}));
  options.targets = {"gmm"};
  try {
    plan("gemm-compare", options);
    FAIL();
  } catch (const SourceError& e) {
    EXPECT_NE(std::string(e.what()).find("did you mean 'gemm'"), std::string::npos) << e.what();
  }
  options.targets = {};
  options.accelerators = {"nvidia-tesla-l4"};
  EXPECT_THROW(plan("gemm-compare", options), SourceError);
  options.accelerators = {};
  options.run_id = "Bad_Id";
  EXPECT_THROW(plan("gemm-compare", options), SourceError);
}

TEST(Names, KubeNamesAreValidAndDistinct) {
  EXPECT_EQ(kube_name({"Train", "a100_80gb", "3", "r1"}), "train-a100-80gb-3-r1");
  const std::string long_a = kube_name({std::string(60, 'a'), "1"});
  const std::string long_b = kube_name({std::string(60, 'a'), "2"});
  EXPECT_LE(long_a.size(), 52u);
  EXPECT_NE(long_a, long_b);
  EXPECT_EQ(run_id_of("gemm-20261128-141926"), "gemm-20261128-141926");  // a run's name, as submit gives it
  EXPECT_TRUE(is_valid_run_id(run_id_of(std::string(60, 'E') + "-20261128-141926")));
}

TEST(Plan, JobsOfOneAcceleratorShareOneCopyOfTheirCommonVariables) {
  const auto items = plan("gemm-compare");
  std::map<std::string, const json*> shared_by_accelerator;
  for (const auto& item : items) {
    if (item.template_name != "job.yaml.j2") continue;
    ASSERT_NE(item.shared, nullptr);
    EXPECT_FALSE(item.context.contains("accelerator"));  // held once, in `shared`
    const json full = item.full_context();
    std::vector<std::string> keys;
    for (const auto& [key, value] : full.items()) keys.push_back(key);
    std::sort(keys.begin(), keys.end());
    EXPECT_EQ(keys, (std::vector<std::string>{"accelerator", "args", "autopilot", "checkpoint_root", "command", "compute_class", "cpu", "cpu_only",
                                              "env", "experiment", "fallback", "gcs", "gpus", "image", "indexed", "job", "labels", "library_path",
                                              "machine_type", "memory", "multi_node", "name",
                                              "namespace", "path", "pending_timeout_seconds", "point", "points", "project", "provisioning", "queue", "run_id", "secret_env",
                                              "secret_refs", "seeded", "service_account", "shm_size", "spot", "storage", "values"}));
    const std::string label = full["accelerator"]["label"];
    auto [at, first] = shared_by_accelerator.emplace(label, item.shared.get());
    if (!first) {
      EXPECT_EQ(at->second, item.shared.get()) << label;
    }
  }
  EXPECT_EQ(shared_by_accelerator.size(), 3u);
}

TEST(Plan, EachTemplatedStringIsExpandedWithTheFieldItCameFrom) {
  std::mutex mutex;
  std::set<std::string> origins;
  const TextExpander expander = [&](const std::string& text, const json&, const std::string& origin) {
    std::lock_guard lock(mutex);
    origins.insert(origin);
    return text;
  };
  const auto project = project::load_project(kExamples / "gemm-compare" / "gkebuild.yaml");
  RenderOptions options;
  options.run_id = "r1";
  plan_render(project, options, catalog::Catalog::builtin(), expander);
  const std::string file = (kExamples / "gemm-compare" / "gkebuild.yaml").string();
  // args[1], [3], [5] and [7] hold template syntax; "--m" and "20" are plain words.
  EXPECT_EQ(origins, (std::set<std::string>{file + ": experiments.gemm.args[1]", file + ": experiments.gemm.args[3]",
                                            file + ": experiments.gemm.args[5]", file + ": experiments.gemm.args[7]"}));
}

}  // namespace
}  // namespace gkebuild::render
