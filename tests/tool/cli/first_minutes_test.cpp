// A new user's first ten minutes (issue 44), on the built binary: render names the Jobs as
// submit will, a registry that cannot be reached is a failed operation that says what to do,
// and an empty run list, an unknown experiment or a folder without a project are explained.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <string>

#include "base/atomic_file.h"
#include "tests/common/run.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::testing {
namespace {
namespace fs = std::filesystem;

const std::string kSourceRoot = GKEBUILD_SOURCE_ROOT;
const std::string kPinned =
    "127.0.0.1:5000/gemm@sha256:0000000000000000000000000000000000000000000000000000000000000000";

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

class FirstMinutes : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(project);
    fs::copy_file(kSourceRoot + "/examples/gemm-compare/gkebuild.yaml", project / "gkebuild.yaml");
  }
  // gkebuild in `dir` (default: the project) with an empty HOME and no kubeconfig.
  CommandResult gkebuild(const std::string& arguments, const fs::path& dir = {}) {
    return run_command("cd " + shell_quoted((dir.empty() ? project : dir).string()) + " && env -u KUBECONFIG HOME=" +
                       shell_quoted(scratch.path().string()) + " " + gkebuild_binary() + " " + arguments);
  }

  TempDir scratch;
  fs::path project = scratch / "p";
};

// The gkebuild.io/run label of every Job in a manifest stream, and the names of the Jobs.
std::string job_names(const std::string& stream) {
  static const std::regex name(R"re(\nkind: Job\nmetadata:\n  name: "?([a-z0-9-]+)"?\n)re");
  std::string names;
  for (std::sregex_iterator it(stream.begin(), stream.end(), name), end; it != end; ++it)
    names += (*it)[1].str() + "\n";
  return names;
}

// README: render shows the Jobs "exactly as they would be applied". Its default run id is the
// run name submit gives (EXPERIMENT-YYYYMMDD-HHMMSS), and for one run name both name every
// Job alike.
TEST_F(FirstMinutes, RenderNamesTheJobsAsSubmitDoes) {
  const auto rendered = gkebuild("render experiment/gemm --accelerator nvidia-l4 --image gemm=" + kPinned);
  ASSERT_EQ(rendered.exit_code, 0) << rendered.err;
  const std::string names = job_names(rendered.out);
  EXPECT_TRUE(std::regex_search(names, std::regex(R"(^gemm-l4-0-gemm-\d{8}-\d{6}\n)"))) << names;
  EXPECT_TRUE(std::regex_search(rendered.out, std::regex(R"(gkebuild\.io/run: gemm-\d{8}-\d{6}\n)")));

  const auto dry = gkebuild("submit gemm --dry-run -q --accelerator nvidia-l4 --image gemm=" + kPinned);
  ASSERT_EQ(dry.exit_code, 0) << dry.err;
  std::smatch run;
  ASSERT_TRUE(std::regex_search(dry.out, run, std::regex(R"(gkebuild\.io/run: (gemm-\d{8}-\d{6})\n)"))) << dry.out;
  const auto same = gkebuild("render experiment/gemm --accelerator nvidia-l4 --run-id " + run[1].str() +
                             " --image gemm=" + kPinned);
  ASSERT_EQ(same.exit_code, 0) << same.err;
  EXPECT_EQ(job_names(same.out), job_names(dry.out));
  EXPECT_EQ(same.out, dry.out);
}

// No network: the base image's registry cannot be reached. A failed operation (exit 1), not bad
// input, and the message says what to do.
TEST_F(FirstMinutes, AnUnreachableBaseRegistryFailsWithAHint) {
  const auto init = gkebuild("init --from registry.invalid/library/python:3.12-slim fresh", scratch.path());
  ASSERT_EQ(init.exit_code, 0) << init.all();
  const auto image = gkebuild("image -q", scratch / "fresh");
  EXPECT_EQ(image.exit_code, 1) << image.all();
  EXPECT_TRUE(contains(image.err, "cannot pull base image registry.invalid/library/python:3.12-slim")) << image.err;
  EXPECT_TRUE(contains(image.err, "a mirror")) << image.err;
  EXPECT_TRUE(contains(image.err, "FROM oci:DIR")) << image.err;
  EXPECT_TRUE(contains(image.err, "gkebuild pull registry.invalid/library/python:3.12-slim -o oci:DIR")) << image.err;
  EXPECT_TRUE(contains(image.err, "gkebuild init --from oci:DIR")) << image.err;
}

TEST_F(FirstMinutes, NoRunsYetIsSaid) {
  const auto runs = gkebuild("runs");
  EXPECT_EQ(runs.exit_code, 0) << runs.all();
  EXPECT_EQ(runs.out, "");
  EXPECT_TRUE(contains(runs.err, "no runs recorded under " + (project / ".gkebuild/runs").string())) << runs.err;
  const auto json = gkebuild("runs -o json");
  EXPECT_EQ(json.out, "[]\n");
}

// Also a plain submit with no kubeconfig yet (a newcomer's first try): the project's own mistake
// is said before the missing cluster access (it used to say only "no kubeconfig file found").
TEST_F(FirstMinutes, AnUnknownExperimentListsTheExperiments) {
  for (const std::string flags : {" --dry-run", " --dry-run --local", ""}) {
    const auto far = gkebuild("submit nope" + flags);
    EXPECT_EQ(far.exit_code, 2) << far.all();
    EXPECT_TRUE(contains(far.err, "no experiment 'nope' in this project; its experiments are gemm")) << far.err;
    const auto typo = gkebuild("submit gemn" + flags);
    EXPECT_TRUE(contains(typo.err, "(did you mean 'gemm'?)")) << typo.err;
  }
}

TEST_F(FirstMinutes, NoProjectSaysWhereItLookedAndSuggestsInit) {
  const fs::path empty = scratch / "empty";
  fs::create_directories(empty);
  for (const std::string command : {"render", "submit train", "cluster render"}) {
    const auto outside = gkebuild(command, empty);
    EXPECT_EQ(outside.exit_code, 2) << command << ": " << outside.all();
    EXPECT_TRUE(contains(outside.err, "no gkebuild.yaml in " + empty.string() + " or any folder above it")) << outside.err;
    EXPECT_TRUE(contains(outside.err, "gkebuild init")) << outside.err;
    EXPECT_TRUE(contains(outside.err, "-f FILE")) << outside.err;
  }
}

}  // namespace
}  // namespace gkebuild::testing
