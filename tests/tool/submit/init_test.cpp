// `gkebuild init`: each template writes a project that renders, validates and runs with
// `submit --local` as it stands (under runc, FROM a base built here offline, as
// tests/common/python_base.h describes), and never overwrites a file.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <memory>

#include "base/atomic_file.h"
#include "tests/common/python_base.h"
#include "tests/common/run.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::testing {
namespace {

namespace fs = std::filesystem;

CommandResult in(const fs::path& dir, const std::string& arguments) {
  return run_command("cd " + shell_quoted(dir.string()) + " && " + gkebuild_binary() + " " + arguments + " 2>&1");
}

TEST(Init, NeverOverwritesAndNamesWhatIsWrong) {
  TempDir dir;
  dir.write("exp/Dockerfile", "FROM mine\n");
  auto r = in(dir.path(), "init exp");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("not overwriting exp/Dockerfile; nothing was written"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir / "exp/gkebuild.yaml"));
  EXPECT_EQ(read_file(dir / "exp/Dockerfile"), "FROM mine\n");
  r = in(dir.path(), "init --template pyton other");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("did you mean 'python'"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir / "other"));
}

// Issue 40: `init --template cmake-cuda DIR` wrote DIR/src's files through a symlinked DIR/src,
// into the folder it leads to. A symlink (or a file) on the way is refused with the files that
// exist, before anything is written; a folder name with control characters is echoed escaped.
TEST(Init, NeverWritesThroughASymlinkAndEchoesItsFolderEscaped) {
  TempDir dir;
  fs::create_directories(dir / "elsewhere");
  fs::create_directories(dir / "exp");
  fs::create_symlink(dir / "elsewhere", dir / "exp/src");
  auto r = in(dir.path(), "init --template cmake-cuda exp");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("not writing through exp/src (a symlink, or a file where a folder goes); nothing was written"),
            std::string::npos)
      << r.out;
  EXPECT_TRUE(fs::is_empty(dir / "elsewhere"));
  EXPECT_FALSE(fs::exists(dir / "exp/gkebuild.yaml"));
  fs::remove(dir / "exp/src");
  fs::create_symlink(dir / "elsewhere/missing", dir / "exp/src");  // dangling: would be followed by mkdir -p
  r = in(dir.path(), "init --template cmake-cuda exp");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_FALSE(fs::exists(dir / "elsewhere/missing"));

  const std::string odd = "odd\x1b]0;title\x07name";
  r = in(dir.path(), "init " + shell_quoted(odd));
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("wrote odd\\x1b]0;title\\x07name/gkebuild.yaml"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find('\x07'), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(dir / odd / "gkebuild.yaml"));
}

TEST(Init, EveryTemplateRendersAndValidatesAsItStands) {
  TempDir dir;
  for (const std::string name : {"python", "dockerfile", "cmake-cuda"}) {
    const auto made = in(dir.path(), "init --template " + name + " " + name + "-project");
    ASSERT_EQ(made.exit_code, 0) << made.out;
    EXPECT_TRUE(fs::exists(dir / (name + "-project/.dockerignore")));
    const auto rendered = in(dir / (name + "-project"), "render -o rendered");
    EXPECT_EQ(rendered.exit_code, 0) << name << ": " << rendered.out;
    const auto validated = in(dir / (name + "-project"), "validate rendered");
    EXPECT_EQ(validated.exit_code, 0) << name << ": " << validated.out;
  }
  EXPECT_NE(read_file(dir / "python-project/gkebuild.yaml").find("project: python-project\n"), std::string::npos);
  EXPECT_NE(read_file(dir / "python-project/Dockerfile").find("FROM docker.io/library/python:3.12-slim\n"),
            std::string::npos);
  EXPECT_TRUE(fs::exists(dir / "cmake-cuda-project/src/saxpy_gpu.cu"));
}

class InitRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "runc runs rootful containers: this test needs root";
    base = build_python_base(dir / "base");
    ASSERT_FALSE(base.empty());
  }
  TempDir dir;
  std::string base;
};

TEST_F(InitRunTest, PythonTemplateRunsUnderSubmitLocal) {
  ASSERT_EQ(in(dir.path(), "init --from " + base + " exp").exit_code, 0);
  const auto r = in(dir / "exp", "submit train --local");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("epoch 3: loss"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"metric\": \"train_loss\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 of 2 Jobs succeeded"), std::string::npos) << r.out;
  const auto report = in(dir / "exp", "report train");
  EXPECT_EQ(report.exit_code, 0) << report.out;
  EXPECT_NE(report.out.find("train_loss"), std::string::npos) << report.out;
}

TEST_F(InitRunTest, DockerfileTemplateRunsUnderSubmitLocal) {
  ASSERT_EQ(in(dir.path(), "init --template dockerfile --from " + base + " exp").exit_code, 0);
  const auto r = in(dir / "exp", "submit run --local");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("\"metric\":\"sum\",\"value\":5050,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 of 2 Jobs succeeded"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace gkebuild::testing
