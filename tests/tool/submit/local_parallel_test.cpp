// Issue 42: how many points of a local run go at once (submit --local --max-in-flight N).
#include <gtest/gtest.h>

#include "tool/submit/local_parallel.h"

namespace gkebuild::submit {
namespace {

TEST(LocalInFlight, WithoutGpusOneUnlessAsked) {
  EXPECT_EQ(local_in_flight(0, 0, 0).points, 1);
  EXPECT_EQ(local_in_flight(0, 0, 1).points, 1);  // a GPU experiment on a machine without one: CPU paths
  EXPECT_EQ(local_in_flight(4, 0, 1).points, 4);
  EXPECT_EQ(local_in_flight(4, 0, 1).note, "");
  EXPECT_EQ(local_in_flight(0, 0, 0).note, "");  // the default says nothing
}

TEST(LocalInFlight, WithGpusOnePointPerGpuByDefault) {
  EXPECT_EQ(local_in_flight(0, 4, 1).points, 4);
  EXPECT_EQ(local_in_flight(0, 4, 2).points, 2);
  EXPECT_EQ(local_in_flight(0, 4, 1).note, "");
  EXPECT_EQ(local_in_flight(2, 4, 1).points, 2);  // fewer than the GPUs allow, as asked
  EXPECT_EQ(local_in_flight(2, 4, 1).note, "");
}

TEST(LocalInFlight, TheGpusBoundWhatIsAskedAndSaySo) {
  const LocalInFlight bounded = local_in_flight(4, 2, 1);
  EXPECT_EQ(bounded.points, 2);
  EXPECT_EQ(bounded.note, "--max-in-flight 4: this machine has 2 GPUs and a point takes 1, so at most 2 run at once");
  EXPECT_EQ(local_in_flight(3, 4, 2).points, 2);
  EXPECT_NE(local_in_flight(3, 4, 2).note, "");
  // A point that wants more GPUs than there are runs on all of them, alone.
  const LocalInFlight big = local_in_flight(2, 1, 8);
  EXPECT_EQ(big.points, 1);
  EXPECT_EQ(big.note,
            "each point asks for 8 GPUs and this machine has 1 GPU: each runs on all of them, one point at a time");
}

}  // namespace
}  // namespace gkebuild::submit
