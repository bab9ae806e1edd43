// upper_changes on upper folders made by hand as overlayfs makes them (root: the whiteouts are
// 0:0 devices, the opaque mark a trusted.* xattr).
#include "tool/steps/run_step/upper_changes.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "base/atomic_file.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::run_step {
namespace {

namespace fs = std::filesystem;
using layer::Entry;
using layer::EntryType;

class UpperChangesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root";
  }
  std::map<std::string, Entry> changes(const RuntimeMade& made = {}) {
    std::map<std::string, Entry> out;
    for (auto& e : upper_changes(upper.path(), made)) out[e.path] = e;
    return out;
  }
  void whiteout(const std::string& path) {
    ASSERT_EQ(::mknod((upper / path).c_str(), S_IFCHR, ::makedev(0, 0)), 0);
  }
  gkebuild::testing::TempDir upper;
};

TEST_F(UpperChangesTest, WhiteoutsOpaqueDirectoriesAndHardLinks) {
  upper.write("dir/new", "new");
  ASSERT_EQ(::lsetxattr((upper / "dir").c_str(), "trusted.overlay.opaque", "y", 1, 0), 0);
  whiteout("gone");
  upper.write("z-first", "same");
  fs::create_hard_link(upper / "z-first", upper / "a-second");
  ASSERT_EQ(::mkfifo((upper / "pipe").c_str(), 0600), 0);
  ASSERT_EQ(::mknod((upper / "null").c_str(), S_IFCHR | 0666, ::makedev(1, 3)), 0);
  const auto entries = changes();
  EXPECT_EQ(entries.size(), 8u);
  EXPECT_EQ(entries.at("dir").type, EntryType::kDirectory);
  EXPECT_TRUE(entries.contains("dir/.wh..wh..opq"));
  EXPECT_TRUE(entries.at("dir/.wh..wh..opq").source.empty());
  EXPECT_EQ(entries.at("dir/new").source, upper / "dir/new");
  EXPECT_TRUE(entries.contains(".wh.gone"));
  EXPECT_FALSE(entries.contains("gone"));
  EXPECT_EQ(entries.at("a-second").type, EntryType::kFile);  // first in path order
  EXPECT_EQ(entries.at("z-first").type, EntryType::kHardlink);
  EXPECT_EQ(entries.at("z-first").link_target, "a-second");
  EXPECT_EQ(entries.at("pipe").type, EntryType::kFifo);
  EXPECT_EQ(entries.at("null").type, EntryType::kCharDevice);
  EXPECT_EQ(entries.at("null").device_minor, 3u);
}

TEST_F(UpperChangesTest, MountPointsTheRuntimeMadeAreLeftOut) {
  fs::create_directories(upper / "proc");
  fs::create_directories(upper / "var/cache/apt");
  upper.write("etc/hosts", "");
  upper.write("run/made-by-the-run", "x");
  fs::create_directories(upper / "run/secrets");
  fs::permissions(upper / "etc", fs::perms(0755));
  RuntimeMade made;
  made.paths = {"proc", "var", "var/cache", "var/cache/apt", "etc/hosts", "run/secrets"};
  made.parents = {{"", {}}, {"etc", {0755, 0, 0}}, {"run", {0755, 0, 0}}};
  const auto entries = changes(made);
  std::vector<std::string> paths;
  for (const auto& [path, e] : entries) paths.push_back(path);
  // run holds a file the RUN wrote; etc only what the runtime made.
  EXPECT_EQ(paths, (std::vector<std::string>{"run", "run/made-by-the-run"}));

  fs::permissions(upper / "etc", fs::perms(0700));  // the RUN changed etc's mode: it stays
  EXPECT_TRUE(changes(made).contains("etc"));
}

}  // namespace
}  // namespace gkebuild::run_step
