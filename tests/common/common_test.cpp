// The shared test helpers do what every suite relies on: separate stdout and stderr, the
// real exit status, quoting that survives the shell, and temporary folders that go away.
#include <gtest/gtest.h>

#include <filesystem>

#include "base/atomic_file.h"
#include "tests/common/run.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::testing {
namespace {

TEST(RunCommand, CapturesStdoutStderrAndExitStatusApart) {
  const auto result = run_command("printf out; printf err >&2; exit 3");
  EXPECT_EQ(result.exit_code, 3);
  EXPECT_EQ(result.out, "out");
  EXPECT_EQ(result.err, "err");
  EXPECT_EQ(result.all(), "outerr");
}

TEST(RunCommand, KilledCommandHasNoExitStatus) {
  EXPECT_EQ(run_command("kill -9 $$").exit_code, -1);
}

TEST(RunCommand, ShellQuotedTextReachesTheCommandUnchanged) {
  const std::string text = "it's $HOME `x` \"y\" \\ *";
  EXPECT_EQ(run_command("printf %s " + shell_quoted(text)).out, text);
}

TEST(RunGkebuild, RunsTheBinaryUnderTest) {
  const auto result = run_gkebuild("version");
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(result.out.starts_with("gkebuild ")) << result.out;
}

TEST(TempDir, IsFreshAndRemovedWithItsContents) {
  std::filesystem::path kept;
  {
    TempDir dir;
    TempDir other;
    EXPECT_NE(dir.path(), other.path());
    EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
    const auto file = dir.write("a/b.txt", "text");
    EXPECT_EQ(file, dir / "a/b.txt");
    EXPECT_EQ(read_file(file), "text");
    kept = dir.path();
  }
  EXPECT_FALSE(std::filesystem::exists(kept));
}

}  // namespace
}  // namespace gkebuild::testing
