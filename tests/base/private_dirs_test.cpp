// gkebuild's own folders (base/private_dirs.h) and the confined folders it keeps in a project
// (base/confined_path.h): a symlink, someone else's folder or a folder others may write is
// refused, never used; names read back from records follow DNS-1123 (base/dns_name.h).
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "base/confined_path.h"
#include "base/dns_name.h"
#include "base/error.h"
#include "base/private_dirs.h"
#include "tests/common/temp_dir.h"

namespace gkebuild {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

fs::perms mode_of(const fs::path& path) { return fs::symlink_status(path).permissions() & fs::perms::all; }

TEST(PrivateDirs, MadeOwnerOnlyWithTheirParents) {
  TempDir dir;
  const fs::path made = private_folder(dir / "a" / "b");
  EXPECT_EQ(made, dir / "a" / "b");
  EXPECT_EQ(mode_of(made), fs::perms::owner_all);
  const fs::path sub = private_subfolder(made, fs::path("runs") / "x");
  EXPECT_EQ(mode_of(sub), fs::perms::owner_all);
  EXPECT_EQ(private_folder(made), made);  // a second call finds it as it is
}

TEST(PrivateDirs, ASymlinkOrAFolderOthersMayWriteIsRefused) {
  TempDir dir;
  fs::create_directory(dir / "elsewhere");
  fs::create_directory_symlink(dir / "elsewhere", dir / "link");
  EXPECT_THROW(private_folder(dir / "link"), Error);
  fs::create_directory(dir / "open");
  fs::permissions(dir / "open", fs::perms::all);
  EXPECT_THROW(private_folder(dir / "open"), Error);
  const fs::path own = private_folder(dir / "own");
  fs::create_directory_symlink(dir / "elsewhere", own / "state");
  EXPECT_THROW(private_subfolder(own, fs::path("state") / "runc"), Error);
  EXPECT_FALSE(fs::exists(dir / "elsewhere" / "runc"));
  EXPECT_THROW(private_subfolder(own, "../escape"), Error);
}

TEST(PrivateDirs, TheEnvironmentMovesThem) {
  TempDir dir;
  ::setenv("GKEBUILD_RUNTIME_DIR", (dir / "rt").c_str(), 1);
  ::setenv("GKEBUILD_CACHE_DIR", (dir / "cache").c_str(), 1);
  EXPECT_EQ(runtime_dir(), dir / "rt");
  EXPECT_EQ(machine_cache_dir(), dir / "cache");
  ::unsetenv("GKEBUILD_RUNTIME_DIR");
  ::unsetenv("GKEBUILD_CACHE_DIR");
}

TEST(PrivateDirs, AFolderKeyFollowsTheRealPath) {
  TempDir dir;
  fs::create_directory(dir / "project");
  fs::create_directory_symlink(dir / "project", dir / "alias");
  EXPECT_EQ(folder_key(dir / "project"), folder_key(dir / "alias"));
  EXPECT_NE(folder_key(dir / "project"), folder_key(dir.path()));
  EXPECT_EQ(folder_key(dir / "project").size(), 16u);
}

TEST(ConfinedFolder, MadeInsideAndNeverThroughASymlink) {
  TempDir dir;
  EXPECT_EQ(confined_folder(dir.path(), fs::path(".gkebuild") / "oci"), dir / ".gkebuild" / "oci");
  EXPECT_TRUE(fs::is_directory(dir / ".gkebuild" / "oci"));
  TempDir victim;
  fs::create_directory_symlink(victim.path(), dir / ".gkebuild" / "runs");
  EXPECT_THROW(confined_folder(dir.path(), fs::path(".gkebuild") / "runs" / "x"), Error);
  EXPECT_FALSE(fs::exists(victim / "x"));
  std::ofstream(dir / ".gkebuild" / "build") << "a file";
  EXPECT_THROW(confined_folder(dir.path(), fs::path(".gkebuild") / "build"), Error);
  EXPECT_THROW(confined_folder(dir.path(), fs::path("..") / "x"), Error);
}

TEST(DnsName, OnlyWhatGkebuildWrites) {
  for (const char* good : {"a", "train-20261128-101500", "train-l4-0-x1", "a.b", "3d-unet-0"})
    EXPECT_TRUE(is_dns_subdomain(good)) << good;
  for (const char* bad : {"", "..", "../x", "a/b", "A", "a_b", "-a", "a-", ".a", "a.", "a..b", "a.-b", "a-.b",
                          "a\x1b", "$(touch x)"})
    EXPECT_FALSE(is_dns_subdomain(bad)) << bad;
  EXPECT_FALSE(is_dns_subdomain(std::string(254, 'a')));
  EXPECT_TRUE(is_dns_subdomain(std::string(253, 'a')));
}

}  // namespace
}  // namespace gkebuild
