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

}  // namespace
}  // namespace gkebuild::run_step
