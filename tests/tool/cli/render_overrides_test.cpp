// render takes submit's overrides (--accelerator, --sweep, --set, --values, --queue,
// --parallelism; the flags are one set, tool/cli/override_flags.cpp) through the same planning
// (tool/steps/plan): for the same flags and run id it prints exactly the Jobs `submit --dry-run`
// would create, byte for byte.
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

const std::string kPinned =
    "127.0.0.1:5000/gemm@sha256:0000000000000000000000000000000000000000000000000000000000000000";

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

class RenderOverrides : public ::testing::Test {
 protected:
  // gemm-compare with its --reps read from values.reps, so that a --set has a key to set.
  void SetUp() override {
    std::string text = read_file(fs::path(GKEBUILD_SOURCE_ROOT) / "examples/gemm-compare/gkebuild.yaml");
    const std::string reps = R"("--reps", "20")";
    const auto at = text.find(reps);
    ASSERT_NE(at, std::string::npos);
    text.replace(at, reps.size(), R"("--reps", "{{ values.reps }}")");
    write_file_atomically(project / "gkebuild.yaml", text);
  }
  // gkebuild in the project with an empty HOME and no kubeconfig: a dry run prints only.
  CommandResult gkebuild(const std::string& arguments) {
    return run_command("cd " + shell_quoted(project.string()) + " && env -u KUBECONFIG HOME=" +
                       shell_quoted(scratch.path().string()) + " " + gkebuild_binary() + " " + arguments);
  }
  // `submit --dry-run -q` with `flags`, then render with the same flags and the run id the dry
  // run printed: the two outputs.
  std::pair<std::string, std::string> submit_and_render(const std::string& flags) {
    const auto dry = gkebuild("submit gemm --dry-run -q --image gemm=" + kPinned + " " + flags);
    EXPECT_EQ(dry.exit_code, 0) << dry.err;
    std::smatch run;
    if (!std::regex_search(dry.out, run, std::regex(R"re(gkebuild\.io/run: "?(gemm-\d{8}-\d{6})"?\n)re"))) {
      ADD_FAILURE() << "no run label in " << dry.out;
      return {};
    }
    const auto rendered =
        gkebuild("render experiment/gemm --run-id " + run[1].str() + " --image gemm=" + kPinned + " " + flags);
    EXPECT_EQ(rendered.exit_code, 0) << rendered.err;
    return {dry.out, rendered.out};
  }

  TempDir scratch;
  fs::path project = scratch / "p";
};

TEST_F(RenderOverrides, ASweepAndASetGiveTheJobsSubmitCreates) {
  const auto [submitted, rendered] =
      submit_and_render("--accelerator nvidia-l4 --sweep n=256,512 --sweep precision=fp16 --set reps=3");
  EXPECT_EQ(rendered, submitted);
  EXPECT_EQ(count(rendered, "\nkind: Job\n"), 2u);  // n=256 and n=512, fp16 only, on nvidia-l4
  EXPECT_TRUE(std::regex_search(rendered, std::regex(R"re(--reps"?\n *- "?3"?\n)re"))) << rendered;
  EXPECT_TRUE(std::regex_search(rendered, std::regex(R"re(gkebuild\.io/point: .*512.*fp16)re"))) << rendered;
}

TEST_F(RenderOverrides, ParallelismGivesTheIndexedJobsSubmitCreates) {
  const auto [submitted, rendered] = submit_and_render(
      "--accelerator nvidia-l4,nvidia-tesla-t4 --sweep n=256,512 --set reps=3 --parallelism 2");
  EXPECT_EQ(rendered, submitted);
  EXPECT_EQ(count(rendered, "\nkind: Job\n"), 2u);  // one Indexed Job per accelerator
  EXPECT_EQ(count(rendered, "\nkind: ConfigMap\n"), 2u);  // each with its 6 points
  EXPECT_EQ(count(rendered, "completions: 6\n"), 2u) << rendered;
}

// Without an experiment target the overrides apply to every experiment rendered.
TEST_F(RenderOverrides, AWholeProjectRenderTakesThemToo) {
  const auto rendered = gkebuild("render --run-id r1 --accelerator nvidia-l4 --sweep n=64 --set reps=1");
  ASSERT_EQ(rendered.exit_code, 0) << rendered.err;
  EXPECT_EQ(count(rendered.out, "\nkind: Job\n"), 3u);  // the three precisions of n=64
}

// A bad override is refused as submit refuses it, before anything is printed.
TEST_F(RenderOverrides, ABadOverrideIsRefusedWithNoOutput) {
  const auto empty = gkebuild("render experiment/gemm --sweep n=1,,2");
  EXPECT_EQ(empty.exit_code, 2) << empty.err;
  EXPECT_NE(empty.err.find("an empty value in the list"), std::string::npos) << empty.err;
  EXPECT_EQ(empty.out, "");
  const auto unread = gkebuild("render experiment/gemm --sweep nobody=1");
  EXPECT_EQ(unread.exit_code, 2) << unread.err;
  EXPECT_NE(unread.err.find("nobody"), std::string::npos) << unread.err;
  EXPECT_EQ(unread.out, "");
  const auto templated = gkebuild("render --template t.j2 --sweep n=1");
  EXPECT_EQ(templated.exit_code, 2) << templated.err;
  EXPECT_NE(templated.err.find("--sweep, --parallelism, --accelerator and --queue belong to project renders"),
            std::string::npos)
      << templated.err;
}

}  // namespace
}  // namespace gkebuild::testing
