// The machine-wide blob store (images/oci/machine_store.h) as `gkebuild prune` sees it: blobs by
// the projects whose tags reach them, blobs no tag reaches (an older image version), records of
// projects that are gone, each laid out by oci::Layout itself in a temporary store.
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "images/oci/layout.h"
#include "images/oci/media_types.h"
#include "tests/common/temp_dir.h"
#include "tool/steps/prune/prune.h"
#include "tool/steps/prune/store.h"

namespace gkebuild::prune {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

class BlobStoreTest : public ::testing::Test {
 protected:
  testing::TempDir scratch;
  StoreDirs dirs{scratch / "cache", scratch / "runtime"};

  oci::Layout project(const std::string& name) {
    return oci::Layout::open_or_create(scratch / name / ".gkebuild" / "oci", {dirs.cache / "oci", true});
  }
  // An image of one layer of `content`, tagged `tag` in `layout`; returns the layer's hex.
  static std::string image(oci::Layout& layout, const std::string& content, const std::string& tag) {
    const auto layer = layout.write_blob(oci::media::kOciLayerGzip, content);
    const auto config = layout.write_blob(oci::media::kOciConfig, "{\"config\":{\"Env\":[\"" + content + "\"]}}");
    const std::string manifest = R"({"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json",)"
                                 R"("config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":")" +
                                 config.digest.str() + R"(","size":)" + std::to_string(config.size) +
                                 R"(},"layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar+gzip","digest":")" +
                                 layer.digest.str() + R"(","size":)" + std::to_string(layer.size) + "}]}";
    layout.tag(tag, layout.write_blob(oci::media::kOciManifest, manifest));
    return layer.digest.hex;
  }
  void age_all(std::chrono::hours age) {
    for (const auto& entry : fs::recursive_directory_iterator(dirs.cache / "oci"))
      fs::last_write_time(entry.path(), fs::file_time_type::clock::now() - age);
  }
  std::vector<StoreItem> list() { return list_store(dirs, [](const fs::path&) { return false; }, ""); }
  const StoreItem* find(const std::vector<StoreItem>& items, ItemKind kind, const std::string& name) {
    for (const auto& item : items)
      if (item.kind == kind && item.name == name) return &item;
    return nullptr;
  }
  bool stored(const std::string& hex) { return fs::exists(dirs.cache / "oci/blobs/sha256" / hex); }
};

// Two projects on one base: the base's blob is kept once, in the store, and both projects' tags
// reach it; the projects' layouts hold no blobs of their own.
TEST_F(BlobStoreTest, TwoProjectsShareOneCopyOfABlob) {
  auto a = project("a");
  auto b = project("b");
  const std::string base_a = image(a, "base", "app:1");
  const std::string base_b = image(b, "base", "app:1");
  ASSERT_EQ(base_a, base_b);
  EXPECT_TRUE(fs::is_empty(scratch / "a/.gkebuild/oci/blobs/sha256"));
  EXPECT_TRUE(fs::is_empty(scratch / "b/.gkebuild/oci/blobs/sha256"));
  const auto items = list();
  const StoreItem* blob = find(items, ItemKind::kBlob, base_a);
  ASSERT_NE(blob, nullptr);
  const std::vector<std::string> both{fs::weakly_canonical(scratch / "a").string(), fs::weakly_canonical(scratch / "b").string()};
  EXPECT_EQ(std::set<std::string>(blob->projects.begin(), blob->projects.end()), std::set<std::string>(both.begin(), both.end()));
  const StoreItem* project_a = find(items, ItemKind::kProject, both[0]);
  ASSERT_NE(project_a, nullptr);
  EXPECT_GT(project_a->bytes, 0u);
}

// A blob no tag reaches any more (the image was rebuilt) goes at a plain prune once unused for an
// hour, and not before; a tagged one stays until --older-than or --all.
TEST_F(BlobStoreTest, APlainPruneRemovesBlobsNoTagReaches) {
  auto a = project("a");
  const std::string old_layer = image(a, "version 1", "app:1");
  const std::string new_layer = image(a, "version 2", "app:1");
  auto young = prune_store(list(), PruneOptions{.dry_run = true});
  for (const auto& d : young) EXPECT_FALSE(d.remove) << d.item.name << ": " << d.reason;
  age_all(2h);
  prune_store(list(), PruneOptions{});
  EXPECT_FALSE(stored(old_layer));
  EXPECT_TRUE(stored(new_layer));
  prune_store(list(), PruneOptions{.older_than = std::chrono::hours(1)});
  EXPECT_FALSE(stored(new_layer));
}

// A project folder that is gone leaves a stale record, which every prune removes; its blobs then
// reach no tag and go as well.
TEST_F(BlobStoreTest, AProjectThatIsGoneLeavesNothingBehind) {
  auto a = project("a");
  const std::string layer = image(a, "content", "app:1");
  fs::remove_all(scratch / "a");
  age_all(2h);
  const auto decisions = prune_store(list(), PruneOptions{});
  bool record_went = false;
  for (const auto& d : decisions) record_went |= d.item.kind == ItemKind::kProject && d.remove;
  EXPECT_TRUE(record_went);
  EXPECT_FALSE(stored(layer));
  EXPECT_TRUE(fs::is_empty(dirs.cache / "oci/projects"));
}

// A checkout's index.json is input: one that names a digest it does not hold, or is not JSON,
// neither stops the listing nor keeps anything but what it reaches.
TEST_F(BlobStoreTest, AHostileIndexIsReadAsInput) {
  auto a = project("a");
  image(a, "content", "app:1");
  std::ofstream(scratch / "a/.gkebuild/oci/index.json") << "{\"manifests\": [{\"digest\": \"sha256:../../etc\"}]";
  auto b = project("b");
  const std::string kept = image(b, "other", "app:1");
  const auto items = list();
  const StoreItem* blob = find(items, ItemKind::kBlob, kept);
  ASSERT_NE(blob, nullptr);
  EXPECT_EQ(blob->projects.size(), 1u);
}

// A build's scratch folder and a blob being written sit in the store's tmp: kept while the
// gkebuild that writes them lives, removed as leftovers once it is gone.
TEST_F(BlobStoreTest, ABuildsScratchIsKeptWhileItsGkebuildLives) {
  const fs::path tmp = dirs.cache / "oci/tmp";
  const std::string own = std::to_string(::getpid());
  for (const std::string& name : std::vector<std::string>{"build-" + own + "-0", "build-999999999-0", "blob-" + own + ".aaaaaa",
                                                          "blob-999999999.bbbbbb"}) {
    fs::create_directories(tmp / name);
    fs::last_write_time(tmp / name, fs::file_time_type::clock::now() - 2h);
  }
  prune_store(list(), PruneOptions{});
  std::set<std::string> left;
  for (const auto& entry : fs::directory_iterator(tmp)) left.insert(entry.path().filename().string());
  EXPECT_EQ(left, (std::set<std::string>{"build-" + own + "-0", "blob-" + own + ".aaaaaa"}));
}

}  // namespace
}  // namespace gkebuild::prune
