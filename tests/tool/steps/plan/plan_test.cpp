// A run planned as data (tool/steps/plan): each Job's sweep point and accelerator come from the
// plan, not from what a template prints in labels and annotations, and the command line's
// overrides change the experiments the targets select, for render and submit alike.
#include <gtest/gtest.h>

#include <filesystem>

#include "base/atomic_file.h"
#include "base/error.h"
#include "base/source_error.h"
#include "tests/common/temp_dir.h"
#include "tool/steps/plan/overrides.h"
#include "tool/steps/plan/run_plan.h"

namespace gkebuild::plan {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::TempDir;

const fs::path kGemmCompare = fs::path(GKEBUILD_SOURCE_ROOT) / "examples/gemm-compare/gkebuild.yaml";

// A Job template of the project's own that prints no gkebuild.io labels or annotations.
constexpr const char* kBareJobTemplate = R"(apiVersion: batch/v1
kind: Job
metadata:
  name: {{ name }}
  namespace: {{ namespace }}
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: main
          image: {{ image }}
          args: {{ args | tojson }}
)";

class PlanRun : public ::testing::Test {
 protected:
  project::Project gemm_compare(bool own_job_template) {
    fs::copy_file(kGemmCompare, scratch / "gkebuild.yaml");
    if (own_job_template) write_file_atomically(scratch / "templates/job.yaml.j2", kBareJobTemplate);
    return project::load_project(scratch / "gkebuild.yaml");
  }
  PlanRequest request() const {
    PlanRequest out;
    out.experiment = "gemm";
    out.render.run_id = "r1";
    out.overrides.accelerators = {"nvidia-l4"};
    out.overrides.sweeps = {{"n", {"256"}}};
    return out;
  }
  TempDir scratch;
};

// The old plan read the point back from the gkebuild.io/point annotation and the accelerator from
// the gkebuild.io/accelerator label: a template without them gave {} and "" (the run record and
// the cost summary then had neither).
TEST_F(PlanRun, PointsAndAcceleratorsComeFromThePlanNotFromLabels) {
  const RunPlan run = plan_run(gemm_compare(true), request());
  ASSERT_EQ(run.jobs.size(), 3u);  // n=256 x three precisions, on one accelerator
  const char* precisions[] = {"fp32", "tf32", "fp16"};
  for (std::size_t i = 0; i < run.jobs.size(); ++i) {
    const PlannedJob& job = run.jobs[i];
    EXPECT_FALSE(job.manifest.object["metadata"].contains("labels")) << job.manifest.text;
    EXPECT_EQ(job.accelerator, "nvidia-l4");
    EXPECT_EQ(job.machine_type, "g2-standard-4");
    EXPECT_EQ(job.gpus, 1);
    EXPECT_TRUE(job.spot);
    EXPECT_EQ(job.parameters, (json{{"n", 256}, {"precision", precisions[i]}}));
  }
}

// With the shipped templates the plan's data and what the Job's labels print agree.
TEST_F(PlanRun, TheShippedTemplatesPrintWhatThePlanHolds) {
  PlanRequest wanted = request();
  wanted.overrides.accelerators = {"nvidia-l4", "nvidia-tesla-t4"};
  const RunPlan run = plan_run(gemm_compare(false), wanted);
  ASSERT_EQ(run.jobs.size(), 6u);
  for (const PlannedJob& job : run.jobs) {
    const json& metadata = job.manifest.object["metadata"];
    EXPECT_EQ(metadata["labels"]["gkebuild.io/accelerator"], job.accelerator);
    EXPECT_EQ(json::parse(metadata["annotations"]["gkebuild.io/point"].get<std::string>()), job.parameters);
  }
  EXPECT_EQ(run.jobs.back().accelerator, "nvidia-tesla-t4");
}

// --parallelism makes the sweep one Indexed Job per accelerator, whose point is the whole sweep
// (its ConfigMap holds the points), and is refused beside seeds:.
TEST_F(PlanRun, ParallelismIsAnOverrideOfTheExperiment) {
  PlanRequest wanted = request();
  wanted.overrides.parallelism = 2;
  const RunPlan run = plan_run(gemm_compare(false), wanted);
  ASSERT_EQ(run.jobs.size(), 1u);
  EXPECT_EQ(run.jobs[0].completions, 3);
  EXPECT_EQ(run.jobs[0].parameters, json::object());
  EXPECT_EQ(run.jobs[0].accelerator, "nvidia-l4");
  ASSERT_EQ(run.support.size(), 2u);  // the Namespace and the ConfigMap of points
  EXPECT_EQ(run.support[1].object["kind"], "ConfigMap");
}

// apply_overrides changes the experiments the render targets select, and gives the options
// the accelerators, queue and values: render and submit take them the same way.
TEST_F(PlanRun, OverridesChangeTheSelectedExperimentsAndTheOptions) {
  const project::Project project = gemm_compare(false);
  Overrides overrides;
  overrides.accelerators = {"nvidia-l4"};
  overrides.queue = "q";
  overrides.parallelism = 4;
  overrides.sweeps = {{"n", {"1", "two"}}};
  overrides.sets = {{"a.b", "3"}};
  render::RenderOptions options;
  options.targets = {"experiment/gemm"};
  const project::Project changed = apply_overrides(project, overrides, options);
  const project::Experiment& gemm = *changed.find_experiment("gemm");
  EXPECT_EQ(gemm.parallelism, 4);
  EXPECT_EQ(gemm.sweep[0].values, (std::vector<nlohmann::ordered_json>{1, "two"}));
  EXPECT_EQ(project.find_experiment("gemm")->sweep[0].values.size(), 2u);  // the loaded project is left alone
  EXPECT_EQ(options.accelerators, std::vector<std::string>{"nvidia-l4"});
  EXPECT_EQ(options.queue, "q");
  EXPECT_EQ(options.values, (nlohmann::ordered_json{{"a", {{"b", 3}}}}));
  // A target that selects no experiment: nothing to override, and nothing refused.
  options.targets = {"namespace"};
  overrides.sweeps = {{"n", {}}};
  EXPECT_NO_THROW(apply_overrides(project, overrides, options));
  options.targets = {"experiment/gemm"};
  EXPECT_THROW(apply_overrides(project, overrides, options), Error);
}

TEST_F(PlanRun, AnUnknownExperimentIsNamedWithTheOnesThereAre) {
  PlanRequest wanted = request();
  wanted.experiment = "gem";
  try {
    plan_run(gemm_compare(false), wanted);
    FAIL() << "planned";
  } catch (const SourceError& error) {
    EXPECT_NE(std::string(error.what()).find("did you mean 'gemm'"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace gkebuild::plan
