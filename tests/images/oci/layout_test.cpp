#include "images/oci/layout.h"

#include <gtest/gtest.h>

#include <sstream>

#include "images/oci/media_types.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::oci {
namespace {

using gkebuild::testing::TempDir;

TEST(Layout, OpenRefusesANonLayout) {
  TempDir dir;
  EXPECT_THROW(Layout::open(dir.path()), std::runtime_error);
}

TEST(Layout, CreatesWritesAndReadsBlobs) {
  TempDir dir;
  Layout layout = Layout::open_or_create(dir / "oci");
  Descriptor d = layout.write_blob(media::kOciConfig, "{}");
  EXPECT_EQ(d.size, 2);
  EXPECT_TRUE(layout.has_blob(d.digest));
  EXPECT_EQ(layout.read_blob(d.digest), "{}");
  EXPECT_TRUE(std::filesystem::exists(dir / "oci/oci-layout"));
  EXPECT_NO_THROW(Layout::open(dir / "oci"));
}

TEST(Layout, ReadBlobDetectsCorruption) {
  TempDir dir;
  Layout layout = Layout::open_or_create(dir.path());
  Descriptor d = layout.write_blob(media::kOciConfig, "{}");
  write_file_atomically(layout.blob_path(d.digest), "{ }");
  EXPECT_THROW(layout.read_blob(d.digest), std::runtime_error);
}

TEST(Layout, StreamedBlobIsVerified) {
  TempDir dir;
  Layout layout = Layout::open_or_create(dir.path());
  std::istringstream good("hello");
  EXPECT_EQ(layout.write_blob("x", good, sha256_of("hello")).digest, sha256_of("hello"));
  std::istringstream bad("hellO");
  EXPECT_THROW(layout.write_blob("x", bad, sha256_of("hello")), std::runtime_error);
  EXPECT_FALSE(layout.has_blob(sha256_of("hellO")));
}

TEST(Layout, TagReplacesTheOldEntryOfThatName) {
  TempDir dir;
  Layout layout = Layout::open_or_create(dir.path());
  Descriptor a = layout.write_blob(media::kOciManifest, "a");
  Descriptor b = layout.write_blob(media::kOciManifest, "b");
  layout.tag("app:1", a);
  layout.tag("app:2", a);
  layout.tag("app:1", b);
  EXPECT_EQ(layout.resolve("app:1")->digest, b.digest);
  EXPECT_EQ(layout.resolve("app:2")->digest, a.digest);
  EXPECT_FALSE(layout.resolve("app:3"));
  EXPECT_EQ(layout.index().manifests.size(), 2u);
}

}  // namespace
}  // namespace gkebuild::oci
