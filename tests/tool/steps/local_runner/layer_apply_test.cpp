#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <filesystem>

#include "tests/common/temp_dir.h"
#include "tests/common/test_tar.h"
#include "tests/images/unpacked_tree.h"
#include "base/atomic_file.h"
#include "tool/steps/local_runner/layer_apply.h"

namespace gkebuild::local_runner {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

using testing::TarEntry;
using Filter = testing::TarFilter;

void write_tar(const fs::path& out, const std::vector<TarEntry>& entries, Filter filter) {
  testing::write_test_tar(out, entries, filter);
}

class LayerApplyTest : public ::testing::Test {
 protected:
  void apply(const std::vector<TarEntry>& entries, Filter filter = Filter::kNone,
             Whiteouts whiteouts = Whiteouts::kApply) {
    const fs::path blob = dir / ("layer" + std::to_string(++layers));
    write_tar(blob, entries, filter);
    apply_layer(blob, oci::sha256_of(read_file(blob)), rootfs, whiteouts);
  }
  std::string read(const std::string& path) { return read_file(rootfs / path); }
  bool exists(const std::string& path) { return fs::exists(fs::symlink_status(rootfs / path)); }

  TempDir dir;
  fs::path rootfs = dir / "rootfs";
  int layers = 0;
  void SetUp() override { fs::create_directories(rootfs); }
};

TEST_F(LayerApplyTest, KeepsContentModesOwnersAndLinks) {
  apply({{"./", 'd', "", 0755},
         {"bin/", 'd', "", 0755},
         {"bin/tool", 'f', "#!tool", 04755, 0, 0},
         {"home/app/notes", 'f', "mine", 0600, 1234, 5678},
         {"bin/alias", 'l', "tool"},
         {"bin/same", 'h', "bin/tool"}},
        Filter::kGzip);
  EXPECT_EQ(read("bin/tool"), "#!tool");
  struct stat st {};
  ASSERT_EQ(::stat((rootfs / "bin/tool").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 04755u);
  EXPECT_EQ(st.st_nlink, 2u);
  EXPECT_EQ(st.st_mtime, 1700000000);
  ASSERT_EQ(::stat((rootfs / "home/app/notes").c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, 1234u);
  EXPECT_EQ(st.st_gid, 5678u);
  EXPECT_EQ(fs::read_symlink(rootfs / "bin/alias"), "tool");
}

TEST_F(LayerApplyTest, WhiteoutsDeleteWhatLowerLayersAdded) {
  apply({{"etc/a", 'f', "a"}, {"etc/b", 'f', "b"}, {"opt/x/1", 'f', "1"}, {"opt/x/sub/2", 'f', "2"}});
  apply({{"etc/.wh.a", 'f', ""},
         {"opt/x/kept-before", 'f', "new"},
         {"opt/x/.wh..wh..opq", 'f', ""},
         {"opt/x/kept-after", 'f', "new"}},
        Filter::kZstd);
  EXPECT_FALSE(exists("etc/a"));
  EXPECT_FALSE(exists("etc/.wh.a"));
  EXPECT_EQ(read("etc/b"), "b");
  EXPECT_FALSE(exists("opt/x/1"));
  EXPECT_FALSE(exists("opt/x/sub"));
  EXPECT_FALSE(exists("opt/x/.wh..wh..opq"));
  EXPECT_EQ(read("opt/x/kept-before"), "new");
  EXPECT_EQ(read("opt/x/kept-after"), "new");
}

// ".wh.." would remove the directory it is in and ".wh..." its parent: at the top of the layer,
// the root file system and the folder holding it.
// A layer unpacked alone as one lower folder of an overlay mount keeps its whiteouts in
// overlayfs' form (needs root: a 0:0 device and a trusted.* xattr).
TEST_F(LayerApplyTest, OverlayFormKeepsWhiteoutsAsDevicesAndOpaqueXattrs) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root";
  apply({{"etc/", 'd', "", 0755},
         {"etc/.wh.gone", 'f', ""},
         {"var/lib/", 'd', "", 0700},
         {"var/lib/.wh..wh..opq", 'f', ""},
         {"var/lib/kept", 'f', "kept"},
         {"opt/deep/.wh.x", 'f', ""}},
        Filter::kNone, Whiteouts::kOverlay);
  struct stat st {};
  ASSERT_EQ(::lstat((rootfs / "etc/gone").c_str(), &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  EXPECT_EQ(st.st_rdev, 0u);
  EXPECT_FALSE(exists("etc/.wh.gone"));
  char value[4] = {};
  EXPECT_EQ(::lgetxattr((rootfs / "var/lib").c_str(), "trusted.overlay.opaque", value, sizeof value), 1);
  EXPECT_EQ(value[0], 'y');
  EXPECT_FALSE(exists("var/lib/.wh..wh..opq"));
  EXPECT_EQ(read("var/lib/kept"), "kept");
  ASSERT_EQ(::lstat((rootfs / "opt/deep/x").c_str(), &st), 0);  // parents the tar does not list are made
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST_F(LayerApplyTest, WhiteoutsOfDotAndDotDotAreRefused) {
  apply({{"etc/a", 'f', "a"}});
  fs::create_directories(dir / "beside");
  for (const std::string bad : {".wh..", ".wh...", "etc/.wh..", "etc/.wh...", ".wh."}) {
    try {
      apply({{bad, 'f', ""}});
      ADD_FAILURE() << bad << " was accepted";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("whiteout entry '" + bad + "' names no file beside it"), std::string::npos)
          << e.what();
    }
    EXPECT_EQ(read("etc/a"), "a") << bad;
    EXPECT_TRUE(fs::exists(dir / "beside")) << bad;
  }
}

TEST_F(LayerApplyTest, UpperEntriesReplaceLowerOnesOfAnotherKind) {
  apply({{"a/inner", 'f', "1"}, {"b", 'f', "file"}});
  apply({{"a", 'f', "now a file"}, {"b/", 'd', "", 0700}});
  EXPECT_EQ(read("a"), "now a file");
  EXPECT_TRUE(fs::is_directory(rootfs / "b"));
}

TEST_F(LayerApplyTest, SymlinksCannotLeadOutOfTheRoot) {
  const fs::path outside = dir / "outside";
  fs::create_directories(outside);
  apply({{"escape", 'l', outside.string()}, {"up", 'l', "../../../../../../.."}});
  apply({{"escape/file", 'f', "x"}, {"up/" + outside.relative_path().string() + "/other", 'f', "y"}});
  EXPECT_TRUE(fs::is_empty(outside));
  EXPECT_EQ(read(outside.relative_path().string() + "/file"), "x");
  EXPECT_EQ(read(outside.relative_path().string() + "/other"), "y");
}

// Issue 30: whatever a layer names (`..`, absolute names, symlinks out and files through them,
// hard links to a file outside, device nodes), in the runner's form and in the overlay form of
// a RUN's lower folders, nothing outside the root file system changes.
TEST_F(LayerApplyTest, HostileLayersChangeNothingOutsideTheRoot) {
  const fs::path outside = dir / "outside";
  write_file_atomically(outside / "victim", "victim");
  const auto before = testing::describe_tree(outside);
  for (const auto whiteouts : {Whiteouts::kApply, Whiteouts::kOverlay}) {
    for (const auto& [name, entries] : testing::hostile_tars(outside)) {
      fs::remove_all(rootfs);
      fs::create_directories(rootfs);
      try {
        apply(entries, Filter::kNone, whiteouts);
      } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("layer sha256:"), std::string::npos) << name << ": " << e.what();
      }
      EXPECT_EQ(testing::describe_tree(outside), before) << name;
    }
  }
}

TEST_F(LayerApplyTest, DotDotEntriesAreRefused) {
  try {
    apply({{"a/../../evil", 'f', "x"}});
    FAIL() << "an entry outside the root was written";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("'a/../../evil' points outside the root file system"), std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(fs::exists(dir / "evil"));
}

TEST_F(LayerApplyTest, ABlobThatDoesNotMatchItsDigestIsAnError) {
  const fs::path blob = dir / "layer";
  write_tar(blob, {{"a", 'f', "x"}}, Filter::kGzip);
  const auto wrong = oci::sha256_of("something else");
  try {
    apply_layer(blob, wrong, rootfs);
    FAIL() << "a corrupt layer was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("is corrupt"), std::string::npos) << e.what();
  }
}

TEST_F(LayerApplyTest, ATruncatedBlobIsAnError) {
  const fs::path blob = dir / "layer";
  write_tar(blob, {{"a", 'f', std::string(100000, 'x')}}, Filter::kGzip);
  std::string bytes = read_file(blob);
  bytes.resize(bytes.size() / 2);
  write_file_atomically(blob, bytes);
  EXPECT_THROW(apply_layer(blob, oci::sha256_of(bytes), rootfs), std::runtime_error);
}

}  // namespace
}  // namespace gkebuild::local_runner
