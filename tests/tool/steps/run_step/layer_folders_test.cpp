// The RUN step's lower folders (tool/steps/local_runner/layer_folders.h) unpacked from hostile layers.
#include "tool/steps/local_runner/layer_folders.h"

#include <gtest/gtest.h>

#include "base/atomic_file.h"
#include "tests/common/temp_dir.h"
#include "tests/common/test_tar.h"
#include "tests/images/unpacked_tree.h"
#include "tests/images/tar_image.h"

namespace gkebuild::run_step {
namespace {

using local_runner::kMaxLowerdirLength;
using local_runner::lower_folders;
namespace fs = std::filesystem;

// Issue 30: whatever a base image's layer names, unpacking it into a RUN's lower folders
// changes nothing outside the cache folder.
TEST(LayerFolders, HostileLayersChangeNothingOutsideTheCache) {
  testing::TempDir dir;
  const fs::path outside = dir / "outside";
  write_file_atomically(outside / "victim", "victim");
  const auto before = testing::describe_tree(outside);
  for (const auto& [name, entries] : testing::hostile_tars(outside)) {
    testing::write_test_tar(dir / "layer.tar", entries);
    image::Image image = testing::image_of_tar(dir / "oci", name, dir / "layer.tar");
    try {
      for (const auto& folder : lower_folders(image, dir / "cache")) EXPECT_TRUE(fs::is_directory(folder)) << name;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("layer sha256:"), std::string::npos) << name << ": " << e.what();
    }
    EXPECT_EQ(testing::describe_tree(outside), before) << name;
  }
}

// Issue 42: a layer folder's mtime is its last use, what `gkebuild prune --older-than` goes by:
// taking an image's folders again marks them used now, though nothing is unpacked.
TEST(LayerFolders, EachUseMarksTheFoldersUsedNow) {
  testing::TempDir dir;
  testing::write_test_tar(dir / "layer.tar", {{"hello.txt", 'f', "hello"}});
  const image::Image image = testing::image_of_tar(dir / "oci", "used", dir / "layer.tar");
  const auto folders = lower_folders(image, dir / "cache");
  ASSERT_EQ(folders.size(), 1u);
  const auto long_ago = fs::file_time_type::clock::now() - std::chrono::hours(24 * 30);
  fs::last_write_time(folders[0], long_ago);
  EXPECT_EQ(lower_folders(image, dir / "cache"), folders);
  EXPECT_GT(fs::last_write_time(folders[0]), long_ago + std::chrono::hours(24 * 29));
}

}  // namespace
}  // namespace gkebuild::run_step
