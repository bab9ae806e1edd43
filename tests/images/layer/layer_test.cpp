#include "base/error.h"
#include "images/layer/layer_writer.h"

#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>

#include <map>

#include "base/atomic_file.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::layer {
namespace {

using gkebuild::testing::TempDir;

struct ReadEntry {
  std::string type;
  unsigned mode;
  long uid, gid;
  int64_t mtime;
  std::string content, link, hardlink;
  unsigned major = 0, minor = 0;
};

std::string type_name(unsigned type) {
  switch (type) {
    case AE_IFDIR: return "dir";
    case AE_IFLNK: return "link";
    case AE_IFCHR: return "char";
    case AE_IFBLK: return "block";
    case AE_IFIFO: return "fifo";
  }
  return "file";
}

// Reads a (compressed) layer back with libarchive, an independent tar reader.
std::map<std::string, ReadEntry> read_layer(const std::filesystem::path& blob) {
  std::map<std::string, ReadEntry> out;
  archive* a = archive_read_new();
  archive_read_support_filter_all(a);
  archive_read_support_format_tar(a);  // layers are tar; "all" would need libxml2 (xar)
  EXPECT_EQ(archive_read_open_filename(a, blob.c_str(), 1 << 16), ARCHIVE_OK);
  archive_entry* e = nullptr;
  while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
    ReadEntry r;
    auto type = archive_entry_filetype(e);
    r.type = type_name(type);
    r.mode = archive_entry_perm(e);
    r.uid = archive_entry_uid(e);
    r.gid = archive_entry_gid(e);
    r.mtime = archive_entry_mtime(e);
    if (archive_entry_symlink(e)) r.link = archive_entry_symlink(e);
    if (archive_entry_hardlink(e)) r.hardlink = archive_entry_hardlink(e);
    r.major = archive_entry_rdevmajor(e);
    r.minor = archive_entry_rdevminor(e);
    std::string content(static_cast<size_t>(archive_entry_size(e)), '\0');
    if (!content.empty()) archive_read_data(a, content.data(), content.size());
    r.content = content;
    out[archive_entry_pathname(e)] = r;
  }
  archive_read_free(a);
  return out;
}

class LayerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    write_file_atomically(dir / "src/a.txt", "alpha");
    write_file_atomically(dir / "src/big.bin", std::string(3 << 20, 'x') + "tail");
    long_name = std::string(120, 'n');
    write_file_atomically(dir / "src" / long_name, "long");
  }

  std::vector<Entry> entries() const {
    return {
        {"app/bin/run", EntryType::kFile, 0755, 0, 0, 5, "", dir / "src/a.txt"},
        {"app", EntryType::kDirectory, 0755},
        {"app/bin", EntryType::kDirectory, 0755},
        {"app/big.bin", EntryType::kFile, 0644, 1000, 1000, (3 << 20) + 4, "", dir / "src/big.bin"},
        {"app/current", EntryType::kSymlink, 0777, 0, 0, 0, "bin/run"},
        {"app/" + long_name, EntryType::kFile, 0600, 0, 0, 4, "", dir / "src" / long_name},
    };
  }

  TempDir dir;
  std::string long_name;
};

TEST_F(LayerTest, GzipLayerReadsBackWithEverySortedEntry) {
  auto layout = oci::Layout::open_or_create(dir / "oci");
  BuiltLayer built = write_layer(layout, entries(), {{Compression::kGzip}, 1700000000});
  EXPECT_EQ(built.blob.media_type, "application/vnd.oci.image.layer.v1.tar+gzip");
  auto read = read_layer(layout.blob_path(built.blob.digest));
  ASSERT_EQ(read.size(), 6u);
  EXPECT_EQ(read["app/bin/run"].content, "alpha");
  EXPECT_EQ(read["app/bin/run"].mode, 0755u);
  EXPECT_EQ(read["app/big.bin"].uid, 1000);
  EXPECT_EQ(read["app/big.bin"].content.size(), (3u << 20) + 4);
  EXPECT_EQ(read["app/current"].link, "bin/run");
  EXPECT_EQ(read["app/" + long_name].content, "long");
  EXPECT_EQ(read["app/"].type, "dir");
  for (const auto& [name, e] : read) EXPECT_EQ(e.mtime, 1700000000) << name;
}

TEST_F(LayerTest, DiffIdMatchesTheUncompressedTar) {
  auto layout = oci::Layout::open_or_create(dir / "oci");
  BuiltLayer built = write_layer(layout, entries(), {{Compression::kZstd}, 0});
  EXPECT_EQ(built.diff_id, diff_id_of(entries(), 0));
  EXPECT_NE(built.diff_id, diff_id_of(entries(), 1));
  EXPECT_EQ(read_layer(layout.blob_path(built.blob.digest)).size(), 6u);
}

TEST_F(LayerTest, OutputDoesNotDependOnThreadCountOrEntryOrder) {
  auto layout = oci::Layout::open_or_create(dir / "oci");
  for (Compression kind : {Compression::kGzip, Compression::kZstd}) {
    auto one = write_layer(layout, entries(), {{kind, 0, 1}, 0});
    auto reversed = entries();
    std::reverse(reversed.begin(), reversed.end());
    auto four = write_layer(layout, reversed, {{kind, 0, 4}, 0});
    EXPECT_EQ(one.blob.digest, four.blob.digest) << name_of(kind);
    EXPECT_EQ(one.diff_id, four.diff_id);
  }
}

TEST_F(LayerTest, AFileThatShrankIsAnError) {
  auto list = entries();
  list[0].size = 50;
  auto layout = oci::Layout::open_or_create(dir / "oci");
  EXPECT_THROW(write_layer(layout, list, {}), std::runtime_error);
}

// Issue 30: a layer gkebuild writes never names an entry, or a hard link's target, with `..`,
// `.`, an empty component or a leading '/'; an entry that would is refused before a byte is written.
TEST_F(LayerTest, EntriesThatAreNotNormalRelativePathsAreRefused) {
  auto layout = oci::Layout::open_or_create(dir / "oci");
  for (const std::string bad : {"../x", "app/../../x", "/abs", "app/./x", "app//x", "app/..", "."}) {
    auto list = entries();
    list.push_back({bad, EntryType::kDirectory, 0755});
    try {
      write_layer(layout, list, {});
      ADD_FAILURE() << bad << " was written";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("layer entry '" + bad + "' is not a normal relative path"),
                std::string::npos) << e.what();
    }
  }
  auto hard = entries();
  hard.push_back({"app/h", EntryType::kHardlink, 0644, 0, 0, 0, "../etc/passwd"});
  EXPECT_THROW(diff_id_of(hard, 0), std::runtime_error);
  hard.back().link_target = "app/bin/run";
  EXPECT_NO_THROW(diff_id_of(hard, 0));
}

// The tar of the entries above, as written before hard links, whiteouts and devices were
// added: the existing kinds keep their bytes (and so every cached layer its digest).
TEST_F(LayerTest, ExistingKindsKeepTheirBytes) {
  EXPECT_EQ(diff_id_of(entries(), 0).str(), "sha256:acc211b2d357bd390889f4dfec3a0a81ccbcbb2d8f5a787e430cac23a5e29349");
}

TEST_F(LayerTest, HardLinksWhiteoutsAndSpecialFilesReadBack) {
  auto list = entries();
  list.push_back({"app/bin/again", EntryType::kHardlink, 0755, 0, 0, 0, "app/bin/run"});
  list.push_back({"app/" + long_name + "-link", EntryType::kHardlink, 0600, 0, 0, 0, "app/" + long_name});
  list.push_back({"app/.wh.gone", EntryType::kFile, 0, 0, 0, 0});
  list.push_back({"app/bin/.wh..wh..opq", EntryType::kFile, 0, 0, 0, 0});
  Entry null_device{"dev/null", EntryType::kCharDevice, 0666};
  null_device.device_major = 1;
  null_device.device_minor = 3;
  list.push_back(null_device);
  Entry disk{"dev/vda", EntryType::kBlockDevice, 0660, 0, 6};
  disk.device_major = 253;
  list.push_back(disk);
  list.push_back({"app/pipe", EntryType::kFifo, 0600});
  auto layout = oci::Layout::open_or_create(dir / "oci");
  auto read = read_layer(layout.blob_path(write_layer(layout, list, {}).blob.digest));
  ASSERT_EQ(read.size(), list.size());
  EXPECT_EQ(read["app/bin/again"].hardlink, "app/bin/run");
  EXPECT_EQ(read["app/bin/again"].content, "");
  EXPECT_EQ(read["app/" + long_name + "-link"].hardlink, "app/" + long_name);  // a pax linkpath
  EXPECT_EQ(read["app/.wh.gone"].type, "file");
  EXPECT_EQ(read["app/.wh.gone"].content, "");
  EXPECT_EQ(read["app/bin/.wh..wh..opq"].type, "file");
  EXPECT_EQ(read["dev/null"].type, "char");
  EXPECT_EQ(read["dev/null"].major, 1u);
  EXPECT_EQ(read["dev/null"].minor, 3u);
  EXPECT_EQ(read["dev/null"].mode, 0666u);
  EXPECT_EQ(read["dev/vda"].type, "block");
  EXPECT_EQ(read["dev/vda"].major, 253u);
  EXPECT_EQ(read["dev/vda"].gid, 6);
  EXPECT_EQ(read["app/pipe"].type, "fifo");
}

TEST(Compression, LevelsAreChecked) {
  struct Null : ByteSink {
    void write(std::string_view) override {}
  } sink;
  EXPECT_THROW(make_compressor({Compression::kGzip, 13}, sink), gkebuild::InputError);
  EXPECT_THROW(make_compressor({Compression::kZstd, 20}, sink), gkebuild::InputError);
  EXPECT_EQ(parse_compression("zstd"), Compression::kZstd);
  EXPECT_FALSE(parse_compression("xz"));
}

}  // namespace
}  // namespace gkebuild::layer
