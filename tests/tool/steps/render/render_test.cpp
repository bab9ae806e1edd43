// Rendering the example projects through the template engine: every manifest parses,
// carries the GPU essentials, and template mistakes are reported at their line.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <fstream>

#include "base/source_error.h"
#include "tests/common/temp_dir.h"
#include "tool/core/project/project.h"
#include "tool/steps/render/parse_back.h"
#include "tool/steps/render/render.h"

namespace gkebuild::render {
namespace {

const std::filesystem::path kExamples = std::filesystem::path(GKEBUILD_SOURCE_ROOT) / "examples";

std::vector<RenderedFile> render_example(const std::string& name, RenderOptions options = {}) {
  options.run_id = "r1";
  return render_project(project::load_project(kExamples / name / "gkebuild.yaml"), options);
}

std::vector<YAML::Node> jobs(const std::vector<RenderedFile>& files) {
  std::vector<YAML::Node> out;
  for (const auto& file : files)
    if (file.object_kind == "Job") out.push_back(YAML::Load(file.text));
  return out;
}

std::string env_value(const YAML::Node& container, const std::string& name) {
  for (const auto& variable : container["env"])
    if (variable["name"].as<std::string>() == name && variable["value"]) return variable["value"].as<std::string>();
  return "";
}

TEST(RenderExamples, GemmCompareJobsHaveTheGpuEssentials) {
  const auto files = render_example("gemm-compare");
  const auto all = jobs(files);
  ASSERT_EQ(all.size(), 18u);
  for (const auto& job : all) {
    const auto spec = job["spec"];
    const auto pod = spec["template"]["spec"];
    const auto container = pod["containers"][0];
    EXPECT_EQ(pod["restartPolicy"].as<std::string>(), "Never");
    EXPECT_EQ(container["resources"]["limits"]["nvidia.com/gpu"].as<int>(), 1);
    EXPECT_EQ(container["resources"]["requests"]["nvidia.com/gpu"].as<int>(), 1);
    const std::string label = pod["nodeSelector"]["cloud.google.com/gke-accelerator"].as<std::string>();
    EXPECT_TRUE(label == "nvidia-l4" || label == "nvidia-tesla-t4" || label == "nvidia-a100-80gb") << label;
    EXPECT_EQ(pod["nodeSelector"]["cloud.google.com/gke-spot"].as<std::string>(), "true");
    EXPECT_EQ(pod["tolerations"][0]["key"].as<std::string>(), "nvidia.com/gpu");
    EXPECT_NE(env_value(container, "LD_LIBRARY_PATH").find("/usr/local/nvidia/lib64"), std::string::npos);
    EXPECT_NE(env_value(container, "PATH").find("/usr/local/nvidia/bin"), std::string::npos);
    EXPECT_GT(spec["ttlSecondsAfterFinished"].as<int>(), 0);
    EXPECT_EQ(spec["activeDeadlineSeconds"].as<int>(), 1800);
    EXPECT_EQ(spec["backoffLimit"].as<int>(), 1);
    EXPECT_EQ(spec["podFailurePolicy"]["rules"][0]["onPodConditions"][0]["type"].as<std::string>(), "DisruptionTarget");
    EXPECT_EQ(job["metadata"]["labels"]["gkebuild.io/project"].as<std::string>(), "gemm-compare");
    EXPECT_EQ(job["metadata"]["labels"]["gkebuild.io/experiment"].as<std::string>(), "gemm");
    EXPECT_EQ(job["metadata"]["labels"]["gkebuild.io/run"].as<std::string>(), "r1");
    EXPECT_EQ(job["metadata"]["labels"]["gkebuild.io/accelerator"].as<std::string>(), label);
  }
  // Sweep values reach the args: the first point is n=4096, precision fp32.
  const auto args = all[0]["spec"]["template"]["spec"]["containers"][0]["args"];
  EXPECT_EQ(args[1].as<std::string>(), "4096");
  EXPECT_EQ(args[7].as<std::string>(), "fp32");
  EXPECT_EQ(files[1].file_name, "job-gemm-nvidia-l4-0.yaml");
}

// The render command keeps what the files were made from instead of freeing it: the same
// files either way, and the templates and contexts handed over stay usable.
TEST(RenderExamples, WhatTheFilesWereMadeFromCanBeKept) {
  RenderOptions options;
  options.run_id = "r1";
  const auto project = project::load_project(kExamples / "gemm-compare" / "gkebuild.yaml");
  std::shared_ptr<const void> made_from;
  const auto kept = render_project(project, options, catalog::Catalog::builtin(), &made_from);
  ASSERT_NE(made_from, nullptr);
  const auto freed = render_project(project, options);
  ASSERT_EQ(kept.size(), freed.size());
  for (std::size_t i = 0; i < kept.size(); ++i) {
    EXPECT_EQ(kept[i].file_name, freed[i].file_name);
    EXPECT_EQ(kept[i].text, freed[i].text);
  }
}

TEST(RenderExamples, MnistHasIndexedJobsStorageAndDriverInstaller) {
  RenderOptions options;
  options.values = {{"epochs", 7}};
  const auto files = render_example("mnist", options);
  std::map<std::string, int> kinds;
  for (const auto& file : files) ++kinds[file.object_kind];
  EXPECT_EQ(kinds["Job"], 8);  // 4 accelerators x 2 learning rates
  EXPECT_EQ(kinds["DaemonSet"], 1);
  EXPECT_EQ(kinds["PersistentVolumeClaim"], 2);
  EXPECT_EQ(kinds["PersistentVolume"], 1);
  EXPECT_EQ(kinds["Deployment"], 1);
  EXPECT_EQ(kinds["Service"], 1);
  EXPECT_EQ(kinds["Namespace"], 1);
  const auto job = jobs(files)[0];
  EXPECT_EQ(job["spec"]["completionMode"].as<std::string>(), "Indexed");
  EXPECT_EQ(job["spec"]["completions"].as<int>(), 3);
  const auto args = job["spec"]["template"]["spec"]["containers"][0]["args"];
  EXPECT_EQ(args[1].as<std::string>(), "/storage/mnist-data");
  EXPECT_EQ(args[3].as<std::string>(), "7");                 // values.epochs
  EXPECT_EQ(args[7].as<std::string>(), "$(GKEBUILD_SEED)");  // seed = completion index
  EXPECT_EQ(args[9].as<std::string>(), "/storage/train/nvidia-tesla-t4/lr0.01/seed$(GKEBUILD_SEED).ckpt");
  // One checkpoint folder per Job and seed: a preempted pod's replacement (same Job, same
  // index) resumes from it; another run starts afresh.
  EXPECT_EQ(args[15].as<std::string>(),
            "/storage/checkpoints/" + job["metadata"]["labels"]["gkebuild.io/run"].as<std::string>() +
                "/train-nvidia-tesla-t4-lr0.01/seed$(GKEBUILD_SEED)");
  EXPECT_EQ(job["spec"]["template"]["spec"]["nodeSelector"]["cloud.google.com/gke-spot"].as<std::string>(), "true");
  EXPECT_EQ(job["spec"]["podFailurePolicy"]["rules"][0]["onPodConditions"][0]["type"].as<std::string>(),
            "DisruptionTarget");
}

TEST(RenderExamples, DockerfileKeepsLibrariesAndWorkloadInSeparateLayers) {
  RenderOptions options;
  options.targets = {"image/gemm"};
  const auto files = render_example("gemm-compare", options);
  ASSERT_EQ(files.size(), 1u);
  const std::string& text = files[0].text;
  EXPECT_EQ(text.rfind("FROM scratch\n", 0), 0u);
  // Libraries, then the loader a scratch image lacks, then the workload: three layers.
  EXPECT_NE(text.find("COPY lib/ /opt/gkebuild/lib/\n"), std::string::npos);
  EXPECT_NE(text.find("COPY lib/ld-linux-x86-64.so.2 /lib64/ld-linux-x86-64.so.2\nCOPY bin/ /opt/gkebuild/bin/\n"),
            std::string::npos);
  EXPECT_NE(text.find("ENTRYPOINT [\"/opt/gkebuild/bin/gemm-bench\"]"), std::string::npos);
  EXPECT_NE(text.find("/usr/local/nvidia/lib64"), std::string::npos);
  EXPECT_EQ(text.find("RUN "), std::string::npos);
}

TEST(RenderExamples, OneImagesDockerfileIsWhatRenderWritesForIt) {
  const auto project = project::load_project(kExamples / "gemm-compare" / "gkebuild.yaml");
  RenderOptions options;
  options.targets = {"image/gemm"};
  options.image_references = {{"gemm", "registry.example/gemm@sha256:" + std::string(64, 'a')}};
  options.values = {{"team", "ml"}};
  const auto files = render_project(project, options);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(render_dockerfile(project, *project.find_image("gemm"), options.image_references["gemm"], options.values),
            files[0].text);
}

TEST(ParseBack, InvalidYamlNamesTheTemplateLine) {
  const std::string source = "kind: Job\nmetadata:\n  name: {{ name }}\nspec: [{{ broken }}\n";
  try {
    parse_rendered("kind: Job\nmetadata:\n  name: x\nspec: [a\n", "job.yaml.j2", source);
    FAIL();
  } catch (const SourceError& e) {
    EXPECT_EQ(e.where().file, "job.yaml.j2");
    EXPECT_EQ(e.where().line, 4) << e.what();
    EXPECT_NE(std::string(e.what()).find("rendered: spec: [a"), std::string::npos) << e.what();
  }
  EXPECT_EQ(locate_template_line("a: {{ x }}\nb: {{ y }}\n", "b: 3"), 2);
  EXPECT_EQ(locate_template_line("a: {{ x }}\na: {{ y }}\n", "a: 3"), 0);  // ambiguous
}

TEST(ParseBack, ManifestNeedsKindAndName) {
  EXPECT_THROW(parse_rendered("apiVersion: v1\n", "t.j2", ""), SourceError);
  const auto objects = parse_rendered("kind: A\nmetadata: {name: a}\n---\n---\nkind: B\nmetadata: {name: b}\n", "t.j2", "");
  ASSERT_EQ(objects.size(), 2u);
  EXPECT_EQ(objects[1].kind, "B");
}

class ProjectOverride : public ::testing::Test {
 protected:
  gkebuild::testing::TempDir temp;
  const std::filesystem::path dir = temp.path();
  void SetUp() override {
    std::filesystem::create_directories(dir / "templates");
    std::filesystem::copy_file(kExamples / "gemm-compare" / "gkebuild.yaml", dir / "gkebuild.yaml");
  }
  void write_template(const std::string& name, const std::string& text) { std::ofstream(dir / "templates" / name) << text; }
};

TEST_F(ProjectOverride, ProjectTemplateReplacesTheShippedOne) {
  write_template("namespace.yaml.j2", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: {{ namespace | quote }}\n  labels: {team: ml}\n");
  RenderOptions options;
  options.targets = {"namespace"};
  const auto files = render_project(project::load_project(dir / "gkebuild.yaml"), options);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_NE(files[0].text.find("team: ml"), std::string::npos);
}

TEST_F(ProjectOverride, AnImagesOwnDockerfileTemplateBesideTheProjectFile) {
  auto project = project::load_project(dir / "gkebuild.yaml");
  auto& image = project.images.front();
  image.dockerfile = "Dockerfile.mine.j2";
  std::ofstream(dir / "Dockerfile.mine.j2") << "FROM {{ image.from }}\nLABEL ref={{ reference }}\n";
  EXPECT_EQ(render_dockerfile(project, image, "r/x:1"), "FROM scratch\nLABEL ref=r/x:1\n");
  image.dockerfile = "Missing.j2";
  try {
    render_dockerfile(project, image, "r/x:1");
    FAIL();
  } catch (const SourceError& e) {
    EXPECT_NE(std::string(e.what()).find("image 'gemm': dockerfile template"), std::string::npos) << e.what();
  }
}

// A project template that is a symlink out of the project (or a templates/ folder that is one)
// is refused: rendering it would copy a host file into the output.
TEST_F(ProjectOverride, TemplatesLeadingOutOfTheProjectAreRefused) {
  std::filesystem::create_symlink("/etc/passwd", dir / "templates" / "namespace.yaml.j2");
  RenderOptions options;
  options.targets = {"namespace"};
  auto expect_refused = [&](const std::string& named) {
    try {
      render_project(project::load_project(dir / "gkebuild.yaml"), options);
      ADD_FAILURE() << "rendered through " << named;
    } catch (const SourceError& e) {
      EXPECT_EQ(e.where().file, (dir / named).string());
      EXPECT_NE(std::string(e.what()).find("a symlink that leads outside the project folder"), std::string::npos)
          << e.what();
      EXPECT_EQ(std::string(e.what()).find("root:"), std::string::npos) << e.what();
    }
  };
  expect_refused("templates/namespace.yaml.j2");
  std::filesystem::remove_all(dir / "templates");
  std::filesystem::create_symlink("/etc", dir / "templates");
  expect_refused("templates");
}

// A Job's template may change its context in place, as in Jinja2; the variables the Jobs of a
// sweep share are not changed for the others (each render reads a document of its own).
TEST_F(ProjectOverride, AChangeToTheContextStaysInItsJob) {
  write_template("job.yaml.j2",
                 "{% set _ = secret_refs.append('x') %}{% set _ = labels.update(seen='yes') %}"
                 "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: {{ name }}\n"
                 "  annotations: {refs: '{{ secret_refs | length }}', labels: '{{ labels | length }}'}\n");
  RenderOptions options;
  options.targets = {"experiment/gemm"};
  const auto files = render_project(project::load_project(dir / "gkebuild.yaml"), options);
  const auto rendered = jobs(files);
  ASSERT_GT(rendered.size(), 2u);
  const std::string labels = rendered[0]["metadata"]["annotations"]["labels"].as<std::string>();
  for (const auto& job : rendered) {
    EXPECT_EQ(job["metadata"]["annotations"]["refs"].as<std::string>(), "1") << job;
    EXPECT_EQ(job["metadata"]["annotations"]["labels"].as<std::string>(), labels) << job;
  }
}

TEST_F(ProjectOverride, BrokenYamlFromAnOverrideIsAnErrorAtTheTemplateLine) {
  write_template("namespace.yaml.j2", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: [{{ namespace }}\n");
  RenderOptions options;
  options.targets = {"namespace"};
  try {
    render_project(project::load_project(dir / "gkebuild.yaml"), options);
    FAIL();
  } catch (const SourceError& e) {
    EXPECT_EQ(e.where().file, "namespace.yaml.j2");
    EXPECT_EQ(e.where().line, 4) << e.what();
  }
}

}  // namespace
}  // namespace gkebuild::render
