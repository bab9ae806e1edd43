// The layer a RUN makes, compared with buildah's for the same command on the same base: both
// images are unpacked with umoci and their root file systems compared (paths, types, modes,
// owners, contents, symlink targets, hard links). buildah runs with `--isolation chroot`, the
// isolation that works in an unprivileged build sandbox, and vfs storage.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <sstream>

#include "busybox_base.h"
#include "rootfs_tree.h"
#include "tests/common/run.h"
#include "tests/common/temp_dir.h"
#include "images/image/layout_source.h"
#include "tool/steps/run_step/run_step.h"

namespace gkebuild::run_step {
namespace {

namespace fs = std::filesystem;
using gkebuild::testing::run_command;
using gkebuild::testing::shell_quoted;
using gkebuild::testing::TempDir;

std::string run_or_fail(const std::string& command) {
  const auto result = run_command(command);
  EXPECT_EQ(result.exit_code, 0) << command << "\n" << result.all();
  return result.out;
}

class BuildahCompareTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "RUN needs root";
    // buildah names an oci: base after its path, which must then be lower case.
    lowercase_ = fs::temp_directory_path() / ("gkebuild-buildah-compare-" + std::to_string(::getpid()));
    fs::remove(lowercase_);
    fs::create_directory_symlink(dir_.path(), lowercase_);
    layout_ = std::make_shared<oci::Layout>(oci::Layout::open_or_create(dir_ / "oci"));
    const image::Image bare = testing::with_layer({}, testing::busybox_entries(dir_ / "files"), layout_);
    // With the mount points present, buildah adds none of them to its layer either.
    base_ = testing::with_layer(bare, testing::mount_point_entries(dir_ / "files"), layout_);
    testing::tag_image(*layout_, base_, "base");
  }

  // base + the RUN's layer, unpacked; `tag` names it in the layout.
  std::map<std::string, std::string> ours(const std::string& script, const std::string& tag, const std::string& user) {
    build::RunRequest request;
    request.user = user;
    request.image = base_;
    request.argv = {"/bin/sh", "-c", script};
    request.working_dir = "/";
    const build::RunChanges changes = run_in_container(request, RunStepDirs{dir_ / "cache" / "state", dir_ / "cache" / "runs", dir_ / "cache",
                                                                          dir_ / "cache" / "cache-mounts"});
    testing::tag_image(*layout_, testing::with_layer(base_, changes.entries, layout_), tag);
    return unpacked(dir_ / "oci", tag);
  }

  std::map<std::string, std::string> buildahs(const std::string& script, const std::string& tag, const std::string& user) {
    const fs::path context = dir_ / ("context-" + tag);
    dir_.write("context-" + tag + "/Dockerfile", "FROM oci:" + (lowercase_ / "oci").string() + ":base\n" +
                                                   (user.empty() ? "" : "USER " + user + "\n") + "RUN " + script + "\n");
    const std::string buildah = "buildah --storage-driver vfs --root " + shell_quoted((dir_ / "storage").string()) +
                                " --runroot " + shell_quoted((dir_ / "runroot").string());
    run_or_fail(buildah + " bud --quiet --isolation chroot -t localhost/compare:" + tag + " " +
                shell_quoted(context.string()));
    run_or_fail(buildah + " push --quiet localhost/compare:" + tag + " oci:" + shell_quoted((dir_ / "theirs").string()) +
                ":" + tag);
    return unpacked(dir_ / "theirs", tag);
  }

  std::map<std::string, std::string> unpacked(const fs::path& layout, const std::string& tag) {
    const fs::path bundle = dir_ / ("bundle-" + layout.filename().string() + "-" + tag);
    run_or_fail("umoci unpack --image " + shell_quoted(layout.string() + ":" + tag) + " " + shell_quoted(bundle.string()));
    return testing::tree_of(bundle / "rootfs");
  }

  void expect_same(const std::string& script, const std::string& tag, const std::string& user = "") {
    const auto mine = ours(script, tag, user);
    const auto theirs = buildahs(script, tag, user);
    ASSERT_FALSE(theirs.empty());
    for (const auto& [path, description] : theirs) {
      EXPECT_EQ(mine.contains(path) ? mine.at(path) : "(missing)", description) << path;
    }
    for (const auto& [path, description] : mine) EXPECT_TRUE(theirs.contains(path)) << path << " only in ours";
  }

  void TearDown() override { fs::remove(lowercase_); }

  TempDir dir_;
  fs::path lowercase_;  // a symlink to dir_
  std::shared_ptr<oci::Layout> layout_;
  image::Image base_;
};

TEST_F(BuildahCompareTest, CreatedFilesDirectoriesAndSymlinks) {
  expect_same("mkdir -p /opt/tool/empty && echo made > /opt/tool/file && chmod 750 /opt/tool && "
              "ln -s tool/file /opt/link && chown 12:34 /opt/tool/file && mknod /opt/pipe p",
              "create");
}

TEST_F(BuildahCompareTest, DeletedFilesAndARemadeDirectory) {
  expect_same("rm /data/gone && rm -rf /data/sub && mkdir /data/sub && echo three > /data/sub/three", "delete");
}

// overlayfs mounted with redirect_dir=off: renaming a base directory copies it whole into the
// upper folder instead of recording a reference to the lower one.
TEST_F(BuildahCompareTest, ARenamedBaseDirectory) { expect_same("mv /data/sub /data/moved", "rename"); }

TEST_F(BuildahCompareTest, ModeAndOwnerChangesOfBaseFiles) {
  expect_same("chmod 600 /etc/keep && chown 1000:1000 /data/one && chmod 700 /data", "chmod");
}

// Only between new files: for a new name of an unchanged base file buildah's vfs diff holds a
// copy, where overlayfs (and so this step, BuildKit and Docker) copy the base file up and keep the
// two names linked (RunStepTest.HardLinksShareTheFirstNameInPathOrder).
TEST_F(BuildahCompareTest, HardLinks) { expect_same("echo same > /b && ln /b /a && ln /b /c", "hardlink"); }

TEST_F(BuildahCompareTest, AUserWritingInItsHome) {
  expect_same("echo mine > /home/app/note && mkdir /home/app/dir && id > /home/app/id", "user", "app");
}

}  // namespace
}  // namespace gkebuild::run_step
