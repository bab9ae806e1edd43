// The shared test helpers do what every suite relies on: separate stdout and stderr, the
// real exit status, quoting that survives the shell, and temporary folders that go away.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "base/atomic_file.h"
#include "tests/common/leak_search.h"
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

// The secrets tests' last check reads gzip and zstd layer blobs decompressed, and stops with
// an error, never silently, at what it cannot read.
TEST(LeakSearch, ReadsCompressedBlobsAndStopsAtWhatItCannotRead) {
  TempDir dir;
  const std::string needle = "leak-needle-31415";
  dir.write("plain/notes.txt", "x " + needle + " y");
  for (const std::string tool : {"gzip", "zstd"}) {
    const auto made = run_command("mkdir -p " + shell_quoted((dir / "blobs").string()) + " && printf %s " +
                                  shell_quoted(needle) + " | " + tool + " -c > " + shell_quoted((dir / "blobs" / tool).string()));
    ASSERT_EQ(made.exit_code, 0) << made.all();
  }
  auto found = files_holding(dir.path(), {needle, "not-there"});
  std::sort(found.begin(), found.end());
  EXPECT_EQ(found, std::vector<std::string>({(dir / "blobs/gzip").string() + ": " + needle,
                                             (dir / "blobs/zstd").string() + ": " + needle,
                                             (dir / "plain/notes.txt").string() + ": " + needle}))
      << ::testing::PrintToString(found);
  EXPECT_EQ(files_under(dir.path()), 3u);
  EXPECT_EQ(text_holding("output", "a " + needle, {needle}), std::vector<std::string>({"output: " + needle}));
  EXPECT_THROW(files_holding(dir / "missing", {needle}), LeakSearchError);
  dir.write("broken/blob", std::string("\x28\xb5\x2f\xfd", 4) + "not zstd at all");
  EXPECT_THROW(files_holding(dir / "broken", {needle}), LeakSearchError);
  if (::geteuid() != 0) {  // root reads a folder whatever its mode
    std::filesystem::create_directories(dir / "locked/inner");
    std::filesystem::permissions(dir / "locked", std::filesystem::perms::none);
    EXPECT_THROW(files_holding(dir / "locked", {needle}), LeakSearchError);
    std::filesystem::permissions(dir / "locked", std::filesystem::perms::owner_all);
  }
}

}  // namespace
}  // namespace gkebuild::testing
