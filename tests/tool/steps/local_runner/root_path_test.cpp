#include <gtest/gtest.h>

#include <filesystem>

#include "tests/common/temp_dir.h"
#include "tool/steps/local_runner/root_path.h"

namespace gkebuild::local_runner {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

TEST(ResolveInRoot, FollowsSymlinksInsideTheRoot) {
  TempDir dir;
  fs::create_directories(dir / "usr/lib");
  fs::create_directory_symlink("usr/lib", dir / "lib");
  EXPECT_EQ(resolve_in_root(dir.path(), "lib/x.so"), dir / "usr/lib/x.so");
  EXPECT_EQ(resolve_in_root(dir.path(), "missing/dir/file"), dir / "missing/dir/file");
}

TEST(ResolveInRoot, AbsoluteTargetsAndDotDotStayInTheRoot) {
  TempDir dir;
  fs::create_directories(dir / "etc");
  fs::create_directory_symlink("/etc", dir / "escape");
  fs::create_directory_symlink("../../../../..", dir / "up");
  EXPECT_EQ(resolve_in_root(dir.path(), "escape/passwd"), dir / "etc/passwd");
  EXPECT_EQ(resolve_in_root(dir.path(), "up/etc/passwd"), dir / "etc/passwd");
  EXPECT_EQ(resolve_in_root(dir.path(), "../../etc"), dir / "etc");
}

TEST(ResolveInRoot, FollowsASymlinkAsTheLastComponent) {
  TempDir dir;
  fs::create_directories(dir / "real");
  fs::create_symlink("/real/file", dir / "link");
  EXPECT_EQ(resolve_in_root(dir.path(), "link"), dir / "real/file");
}

TEST(ResolveInRoot, ALoopIsAnError) {
  TempDir dir;
  fs::create_symlink("b", dir / "a");
  fs::create_symlink("a", dir / "b");
  EXPECT_THROW(resolve_in_root(dir.path(), "a/x"), std::runtime_error);
}

}  // namespace
}  // namespace gkebuild::local_runner
