// Independent stages of a multi-stage Dockerfile build at the same time (issue 14): two stages
// whose RUNs can only finish when the other one is running meet through a shared cache mount.
// Built one after the other, the first stage would wait for a file that never comes and fail.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "busybox_base.h"
#include "images/dockerfile_build/builder.h"
#include "tests/common/temp_dir.h"
#include "tool/steps/local_runner/runtime_cli.h"
#include "tool/steps/run_step/run_step.h"

namespace gkebuild::run_step {
namespace {

using gkebuild::testing::TempDir;

// Touches /meet/NAME, then waits up to 30 s for /meet/OTHER; fails without it.
std::string meet(const std::string& name, const std::string& other) {
  return "RUN --mount=type=cache,id=meet,target=/meet sh -c 'touch /meet/" + name +
         "; i=0; while [ ! -e /meet/" + other + " ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done; "
         "test -e /meet/" + other + " && echo " + name + " met " + other + " > /" + name + "'\n";
}

TEST(ParallelStages, IndependentStagesBuildAtTheSameTime) {
  if (::geteuid() != 0) GTEST_SKIP() << "RUN needs root";
  try {
    local_runner::find_runtime("");
  } catch (const std::exception& e) {
    GTEST_SKIP() << e.what();
  }
  TempDir dir;
  auto layout = std::make_shared<oci::Layout>(oci::Layout::open_or_create(dir / "oci"));
  const image::Image base = testing::with_layer({}, testing::busybox_entries(dir / "files"), layout);
  testing::tag_image(*layout, base, "busybox");
  std::filesystem::create_directories(dir / "context");
  const std::string from = "FROM oci:" + (dir / "oci").string() + ":busybox";
  std::ofstream(dir / "context" / "Dockerfile")
      << from << " AS left\n" << meet("left", "right")
      << from << " AS right\n" << meet("right", "left")
      << "FROM scratch\nCOPY --from=left /left /left\nCOPY --from=right /right /right\n";

  build::BuildOptions options;
  options.dockerfile = dir / "context" / "Dockerfile";
  options.context = dir / "context";
  options.run = run_step(dir / "run-cache");
  const build::BuildResult result = build::build_image(options, layout);
  EXPECT_EQ(result.image.layers().size(), 2u);
  EXPECT_EQ(result.layers_built, 4);  // two RUNs, two COPYs
}

}  // namespace
}  // namespace gkebuild::run_step
