// run_child: input in, both streams out (a child that fills stderr before writing stdout must
// not block), the exit status, the per-stream limit, and a program that is not installed.
#include <gtest/gtest.h>

#include "base/child_process.h"

namespace gkebuild {
namespace {

TEST(ChildProcess, InputGoesInBothStreamsComeBack) {
  // 200 KB on stderr before anything on stdout: more than a pipe holds.
  const auto ran = run_child({"sh", "-c", "head -c 200000 /dev/zero >&2; cat; exit 3"}, {.input = "hello"});
  ASSERT_TRUE(ran);
  EXPECT_EQ(ran->out, "hello");
  EXPECT_EQ(ran->err.size(), 200000u);
  EXPECT_EQ(ran->exit_code, 3);
}

TEST(ChildProcess, WithoutInputStdinIsEmptyAndTheLimitDropsTheRest) {
  const auto ran = run_child({"sh", "-c", "cat; head -c 100000 /dev/zero"}, {.output_limit = 1000});
  ASSERT_TRUE(ran);
  EXPECT_GE(ran->out.size(), 1000u);    // read in pieces: the piece that crosses the limit is kept
  EXPECT_LT(ran->out.size(), 20000u);
  EXPECT_EQ(ran->exit_code, 0);
}

TEST(ChildProcess, AProgramThatIsNotInstalledIsNoOutput) {
  EXPECT_FALSE(run_child({"gkebuild-no-such-program-anywhere"}));
}

}  // namespace
}  // namespace gkebuild
