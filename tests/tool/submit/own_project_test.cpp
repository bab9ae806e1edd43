// The researcher's own project (issue 31): their Dockerfile, used as written, with the
// project folder as its build context under its .dockerignore; a Python script COPYed from
// the project and run as `python` from a conda-style base whose PATH is only /opt/conda/bin
// and the usual folders; `--no-build` and `--image NAME=REF` taken by `submit --local` as by
// a cluster submit. Real RUN executor, runc and a loopback docker-registry; needs root.
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "base/atomic_file.h"
#include "tests/common/python_base.h"
#include "tests/common/run.h"
#include "tests/common/temp_dir.h"
#include "tests/registry/harness.h"

namespace gkebuild::testing {
namespace {

namespace fs = std::filesystem;

constexpr const char* kTrainPy = R"(import argparse, json, os
parser = argparse.ArgumentParser()
parser.add_argument("--lr", type=float, default=0.1)
args = parser.parse_args()
print("files:", " ".join(sorted(os.listdir("/app"))))
print("PATH=" + os.environ["PATH"])
print(json.dumps({"schema": "gkebuild.workload.v1", "workload": "train.py", "metric": "loss",
                  "value": args.lr * 2, "unit": "nats"}))
)";

class OwnProjectTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { base_dir_ = std::make_unique<TempDir>(); }
  static void TearDownTestSuite() { base_dir_.reset(); }

  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "RUN and runc run rootful containers: this test needs root";
    base = build_python_base(base_dir_->path());
    ASSERT_FALSE(base.empty());
    project.write("gkebuild.yaml", project_file(""));
    // RUN writes a fresh random id: a RUN executed again would change the image's digest.
    project.write("Dockerfile", "FROM " + base + "\nWORKDIR /app\nCOPY . /app/\n"
                                "RUN cat /proc/sys/kernel/random/uuid > /app/built-id\n");
    project.write("train.py", kTrainPy);
    project.write(".dockerignore", "# never in the image\nsecret.txt\nnotes/\n");
    project.write("secret.txt", "hunter2\n");
    project.write("notes/today.md", "an idea\n");
    project.write(".gkebuild/leftover", "gkebuild's own folder is never part of a build context\n");
  }

  static std::string project_file(const std::string& experiment_env) {
    return "apiVersion: gkebuild/v1\nproject: own\nregistry: registry.test/exp\nimages:\n  trainer:\n"
           "    dockerfile: Dockerfile\nexperiments:\n  train:\n    image: trainer\n"
           "    command: [python, train.py]\n    args: [--lr, '{{ lr }}']\n    accelerators: [nvidia-l4]\n"
           "    sweep: {lr: [0.1, 0.01]}\n" + experiment_env;
  }

  CommandResult gkebuild(const std::string& arguments) {
    return run_command("cd " + shell_quoted(project.path().string()) + " && " + gkebuild_binary() + " " + arguments +
                       " 2>&1");
  }

  static std::unique_ptr<TempDir> base_dir_;
  std::string base;
  TempDir project;
};

std::unique_ptr<TempDir> OwnProjectTest::base_dir_;

TEST_F(OwnProjectTest, DockerfileSeesTheProjectFolderUnderItsDockerignoreAndKeepsTheBasesPath) {
  const auto r = gkebuild("submit train --local");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  // COPY . took the project's files, without the ignored ones and without .gkebuild/.
  EXPECT_NE(r.out.find("files: .dockerignore Dockerfile built-id gkebuild.yaml train.py\n"), std::string::npos)
      << r.out;
  // `python` found on the image's own PATH, the driver's folder appended.
  EXPECT_NE(r.out.find("PATH=/opt/conda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:"
                       "/usr/local/nvidia/bin\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("2 of 2 Jobs succeeded"), std::string::npos) << r.out;
  // render, after the build, reads the built image's config as submit does.
  const auto rendered = gkebuild("render train");
  EXPECT_EQ(rendered.exit_code, 0) << rendered.out;
  EXPECT_NE(rendered.out.find("value: \"/opt/conda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:"
                              "/usr/local/nvidia/bin\""),
            std::string::npos)
      << rendered.out;
}

TEST_F(OwnProjectTest, EditsToFilesTheDockerfileDoesNotReadRebuildNothing) {
  const auto first = gkebuild("image -q");
  ASSERT_EQ(first.exit_code, 0) << first.out;
  project.write("secret.txt", "hunter3\n");             // ignored
  project.write("notes/today.md", "another idea\n");    // ignored folder
  project.write(".gkebuild/leftover", "changed\n");     // gkebuild's own
  const auto again = gkebuild("image -q");
  ASSERT_EQ(again.exit_code, 0) << again.out;
  EXPECT_EQ(again.out, first.out) << "an edit to an ignored file ran the RUN again";
  project.write("train.py", std::string(kTrainPy) + "# edited\n");
  const auto edited = gkebuild("image -q");
  ASSERT_EQ(edited.exit_code, 0) << edited.out;
  EXPECT_NE(edited.out, first.out);
}

TEST_F(OwnProjectTest, ErrorsNameTheUsersDockerfileAndLine) {
  project.write("Dockerfile", "FROM " + base + "\nWORKDIR /app\nCOPY missing.py /app/\n");
  const auto r = gkebuild("image");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("Dockerfile:3:6: error: COPY source 'missing.py' matches nothing in the build context"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find(".gkebuild/context"), std::string::npos) << r.out;
  // A template (dockerfile: *.j2) is rendered first; the error names the template's line.
  std::string yaml = project_file("");
  yaml.replace(yaml.find("dockerfile: Dockerfile"), 22, "dockerfile: Dockerfile.j2\n    from: " + base);
  project.write("gkebuild.yaml", yaml);
  project.write("templates/Dockerfile.j2", "{#- the trainer -#}\nFROM {{ image.from }}\nWORKDIR /app\n"
                                           "COPY {{ values.script | default('missing.py') }} /app/\n");
  const auto templated = gkebuild("image");
  EXPECT_EQ(templated.exit_code, 2) << templated.out;
  EXPECT_NE(templated.out.find("templates/Dockerfile.j2:4: error: COPY source 'missing.py' matches nothing"),
            std::string::npos)
      << templated.out;
  // In a project, --context is refused, not silently ignored.
  const auto context = gkebuild("image --context elsewhere");
  EXPECT_EQ(context.exit_code, 2) << context.out;
  EXPECT_NE(context.out.find("--context is for --dockerfile builds"), std::string::npos) << context.out;
}

TEST_F(OwnProjectTest, AnExperimentMaySetPathItself) {
  project.write("gkebuild.yaml", project_file("    env: {PATH: '/opt/conda/bin:/bin:/opt/tools'}\n"));
  const auto r = gkebuild("submit train --local --sweep lr=0.5");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("PATH=/opt/conda/bin:/bin:/opt/tools:/usr/local/nvidia/bin\n"), std::string::npos) << r.out;
}

// Regression: `submit --local --no-build` and `--image NAME=REF` built the image again. The
// Dockerfile is broken after the first run, so a rebuild fails.
TEST_F(OwnProjectTest, LocalRunsTakeNoBuildAndGivenImagesWithoutBuilding) {
  const auto first = gkebuild("submit train --local --sweep lr=0.1");
  ASSERT_EQ(first.exit_code, 0) << first.out;
  project.write("Dockerfile", "FROM " + base + "\nCOPY missing.py /app/\n");
  const auto no_build = gkebuild("submit train --local --sweep lr=0.2 --no-build");
  EXPECT_EQ(no_build.exit_code, 0) << no_build.out;
  EXPECT_NE(no_build.out.find("the last local build"), std::string::npos) << no_build.out;
  EXPECT_NE(no_build.out.find("\"value\": 0.4"), std::string::npos) << no_build.out;

  TempDir registry_dir;
  Registry registry(registry_dir.path(), {});
  registry.start();
  const auto pushed = gkebuild("push -q --insecure-registry " + registry.host() +
                               " oci:.gkebuild/oci:registry.test/exp/own-trainer:latest " + registry.host() +
                               "/own/trainer:1");
  ASSERT_EQ(pushed.exit_code, 0) << pushed.out;
  std::string reference = pushed.out.substr(0, pushed.out.find('\n'));
  ASSERT_NE(reference.find("@sha256:"), std::string::npos) << pushed.out;
  fs::remove_all(project / ".gkebuild/oci");  // nothing local to fall back on: it must be pulled
  const auto given = gkebuild("submit train --local --sweep lr=0.3 --image trainer=" + reference +
                              " --insecure-registry " + registry.host());
  EXPECT_EQ(given.exit_code, 0) << given.out;
  EXPECT_NE(given.out.find("(given; not built)"), std::string::npos) << given.out;
  EXPECT_NE(given.out.find("\"value\": 0.6"), std::string::npos) << given.out;
  EXPECT_NE(given.out.find("PATH=/opt/conda/bin:"), std::string::npos) << given.out;
  // The run record names the image that ran.
  int named = 0;
  for (const auto& run : fs::directory_iterator(project / ".gkebuild/runs")) {
    const auto record = nlohmann::json::parse(read_file(run.path() / "run.json"));
    named += record["images"]["trainer"] == reference;
  }
  EXPECT_EQ(named, 1);
}

}  // namespace
}  // namespace gkebuild::testing
