#include <gtest/gtest.h>
#include <sys/stat.h>

#include "tests/common/temp_dir.h"
#include "base/atomic_file.h"
#include "tool/steps/local_runner/container_user.h"

namespace gkebuild::local_runner {
namespace {

using testing::TempDir;

class ContainerUserTest : public ::testing::Test {
 protected:
  void SetUp() override {
    write_file_atomically(dir / "etc/passwd", "root:x:0:0:root:/root:/bin/sh\n"
                                                  "# a comment\n"
                                                  "app:x:1000:1001::/home/app:/bin/sh\n");
    write_file_atomically(dir / "etc/group", "root:x:0:\napp:x:1001:\nstaff:x:50:app,other\nvideo:x:44:app\n");
  }
  TempDir dir;
};

TEST_F(ContainerUserTest, EmptyIsRoot) {
  const auto u = resolve_user("", dir.path());
  EXPECT_EQ(u.uid, 0u);
  EXPECT_EQ(u.gid, 0u);
  EXPECT_TRUE(u.additional_gids.empty());
  EXPECT_EQ(u.home, "/root");
}

TEST_F(ContainerUserTest, NamesComeFromTheImagesFiles) {
  const auto u = resolve_user("app", dir.path());
  EXPECT_EQ(u.uid, 1000u);
  EXPECT_EQ(u.gid, 1001u);
  EXPECT_EQ(u.additional_gids, (std::vector<uint32_t>{50, 44}));
  EXPECT_EQ(resolve_user("app:staff", dir.path()).gid, 50u);
  EXPECT_EQ(u.home, "/home/app");
}

TEST_F(ContainerUserTest, NumbersNeedNoFiles) {
  TempDir empty;
  const auto u = resolve_user("4242:77", empty.path());
  EXPECT_EQ(u.home, "/");  // no /etc/passwd entry
  EXPECT_EQ(u.uid, 4242u);
  EXPECT_EQ(u.gid, 77u);
  EXPECT_EQ(resolve_user("4242", empty.path()).gid, 0u);
  EXPECT_EQ(resolve_user("1000", dir.path()).gid, 1001u);
}

TEST_F(ContainerUserTest, UnknownNamesAreErrors) {
  EXPECT_THROW(resolve_user("nobody", dir.path()), std::runtime_error);
  EXPECT_THROW(resolve_user("app:wheel", dir.path()), std::runtime_error);
  try {
    resolve_user("ghost", dir.path());
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("'ghost'"), std::string::npos) << e.what();
  }
}

// An image's /etc/passwd that is a FIFO (an image can come from a checkout) stopped
// `submit --local` for ever: only a regular file is read, anything else holds no entries.
TEST_F(ContainerUserTest, AFifoForThePasswdFileIsNotWaitedOn) {
  TempDir root;
  std::filesystem::create_directories(root / "etc");
  ASSERT_EQ(::mkfifo((root / "etc/passwd").c_str(), 0600), 0);
  ASSERT_EQ(::mkfifo((root / "etc/group").c_str(), 0600), 0);
  EXPECT_EQ(resolve_user("", root.path()).uid, 0u);  // root, returned at once: no entry read
  EXPECT_THROW(resolve_user("app", root.path()), std::runtime_error);
}

}  // namespace
}  // namespace gkebuild::local_runner
