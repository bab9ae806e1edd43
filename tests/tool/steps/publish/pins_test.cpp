// The pin file (.gkebuild/images.json): round trip, merging, errors at their
// position, and which pins `gkebuild render` uses.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdlib>

#include "base/atomic_file.h"
#include "base/source_error.h"
#include "images/oci/layout.h"
#include "images/oci/media_types.h"
#include "tests/registry/harness.h"
#include "tool/steps/publish/pinned_references.h"
#include "tool/steps/publish/pins.h"

namespace gkebuild::publish {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

const std::string kDigestA = "sha256:" + std::string(64, 'a');
const std::string kDigestB = "sha256:" + std::string(64, 'b');

ImagePin pin(const std::string& repository, const std::string& digest, const std::string& built = "") {
  return {repository + "@" + digest, repository + ":latest", built, "", "2026-11-22T03:00:00Z"};
}

std::string error_of(const fs::path& file) {
  try {
    read_pins(file);
  } catch (const Error& e) {  // a SourceError, or the refusal of a file that is not gkebuild's
    return e.what();
  }
  return "no error";
}

TEST(PinsTest, MissingFileHasNoPins) {
  TempDir dir;
  EXPECT_TRUE(read_pins(pins_file(dir.path())).empty());
}

TEST(PinsTest, WrittenPinsReadBack) {
  TempDir dir;
  ImagePins pins{{"gemm", pin("127.0.0.1:5000/exp/p-gemm", kDigestA, kDigestB)}};
  pins["gemm"].layout = "/tmp/oci";
  write_pins(pins_file(dir.path()), pins);
  const auto back = read_pins(pins_file(dir.path()));
  ASSERT_EQ(back.size(), 1u);
  const auto& gemm = back.at("gemm");
  EXPECT_EQ(gemm.reference, "127.0.0.1:5000/exp/p-gemm@" + kDigestA);
  EXPECT_EQ(gemm.tag, "127.0.0.1:5000/exp/p-gemm:latest");
  EXPECT_EQ(gemm.built, kDigestB);
  EXPECT_EQ(gemm.layout, "/tmp/oci");
  EXPECT_EQ(gemm.pushed_at, "2026-11-22T03:00:00Z");
}

TEST(PinsTest, RecordKeepsTheOtherImagesAndReplacesItsOwn) {
  TempDir dir;
  const auto file = pins_file(dir.path());
  record_pin(file, "a", pin("r.example/p-a", kDigestA));
  record_pin(file, "b", pin("r.example/p-b", kDigestA));
  record_pin(file, "a", pin("r.example/p-a", kDigestB));
  const auto pins = read_pins(file);
  ASSERT_EQ(pins.size(), 2u);
  EXPECT_EQ(pins.at("a").reference, "r.example/p-a@" + kDigestB);
  EXPECT_EQ(pins.at("b").reference, "r.example/p-b@" + kDigestA);
  for (const auto& entry : fs::directory_iterator(file.parent_path()))
    EXPECT_TRUE(entry.path() == file || entry.path().extension() == ".lock") << entry.path();
}

TEST(PinsTest, BrokenJsonIsAnErrorAtItsPosition) {
  TempDir dir;
  const auto file = pins_file(dir.path());
  write_file_atomically(file, "{\n  \"images\": {\n    \"a\": [\n}\n");
  EXPECT_NE(error_of(file).find(file.string() + ":4:"), std::string::npos) << error_of(file);
}

TEST(PinsTest, APinWithoutADigestIsRefusedWhereItIs) {
  TempDir dir;
  const auto file = pins_file(dir.path());
  write_file_atomically(file, "{\"images\": {\n  \"a\": {\"reference\": \"r.example/p-a:latest\",\n"
                                  "        \"tag\": \"r.example/p-a:latest\"}}}\n");
  const auto message = error_of(file);
  EXPECT_NE(message.find(file.string() + ":2:"), std::string::npos) << message;
  EXPECT_NE(message.find("names no digest"), std::string::npos) << message;
}

TEST(PinsTest, AnUnknownKeyIsRefusedWithASuggestion) {
  TempDir dir;
  const auto file = pins_file(dir.path());
  write_file_atomically(file, "{\"images\": {\"a\": {\"reference\": \"r.example/p-a@" + kDigestA +
                                      "\", \"tag\": \"r.example/p-a:latest\", \"bilt\": \"x\"}}}\n");
  const auto message = error_of(file);
  EXPECT_NE(message.find(file.string() + ":1:"), std::string::npos) << message;
  EXPECT_NE(message.find("built"), std::string::npos) << message;
}

// Issue 30: `ln -s /proc/self/environ .gkebuild/images.json` in a checkout under review made a
// read-only `gkebuild render` print the environment in its parse error.

TEST(PinsTest, APinFileSymlinkedAnywhereIsRefusedUnread) {
  TempDir dir;
  ::setenv("GKEBUILD_PIN_TEST_SECRET", "hunter2-in-the-environment", 1);
  const auto file = pins_file(dir.path());
  fs::create_directories(file.parent_path());
  fs::create_symlink("/proc/self/environ", file);
  std::string message = error_of(file);
  EXPECT_EQ(message.find("hunter2"), std::string::npos) << message;
  EXPECT_NE(message.find("leads outside"), std::string::npos) << message;
  // A symlink that stays inside the project is refused too: gkebuild wrote no symlink there.
  fs::remove(file);
  dir.write("secret.txt", "{\"images\": {\"hunter2\": 1}}\n");
  fs::create_symlink("../secret.txt", file);
  message = error_of(file);
  EXPECT_NE(message.find("is a symlink"), std::string::npos) << message;
  EXPECT_EQ(message.find("hunter2"), std::string::npos) << message;
}

TEST(PinsTest, AGkebuildFolderLeadingOutIsRefused) {
  TempDir dir, elsewhere;
  elsewhere.write("images.json", "{\"images\": {}}\n");
  fs::create_directories(dir / "p");
  fs::create_symlink(elsewhere.path(), dir / "p" / ".gkebuild");
  const std::string message = error_of(pins_file(dir / "p"));
  EXPECT_NE(message.find("leads outside"), std::string::npos) << message;
}

TEST(PinsTest, AFifoOrADeviceIsRefusedWithoutWaiting) {
  TempDir dir;
  const auto file = pins_file(dir.path());
  fs::create_directories(file.parent_path());
  ASSERT_EQ(::mkfifo(file.c_str(), 0600), 0);
  // A FIFO without a writer: reading it would wait forever (ctest's timeout is the guard).
  EXPECT_NE(error_of(file).find("is not a regular file"), std::string::npos) << error_of(file);
}

TEST(PinsTest, AnErrorInThePinFileNeverQuotesItsLines) {
  TempDir dir;
  const auto file = pins_file(dir.path());
  write_file_atomically(file, "{\"images\": {\"a\": \"hunter2-on-this-line\"}}\n");
  const auto message = error_of(file);
  EXPECT_NE(message.find(file.string() + ":1:"), std::string::npos) << message;
  EXPECT_NE(message.find("must be a mapping"), std::string::npos) << message;
  EXPECT_EQ(message.find("hunter2-on-this-line"), std::string::npos) << message;
}

class PinnedReferencesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    project.dir = dir.path();
    project.name = "p";
    project.registry = "r.example/exp/";
    project.images.push_back({});
    project.images.back().name = "a";
    project.images.push_back({});
    project.images.back().name = "b";
  }
  std::map<std::string, std::string> references() {
    warnings.clear();
    return pinned_references(project, [this](const std::string& line) { warnings.push_back(line); });
  }
  // Tags a manifest-shaped blob in the project's layout as `gkebuild image` does.
  std::string build_in_layout(const std::string& content) {
    auto layout = oci::Layout::open_or_create(dir.path() / ".gkebuild" / "oci");
    auto manifest = layout.write_blob(oci::media::kOciManifest, content);
    layout.tag("r.example/exp/p-a:latest", manifest);
    return manifest.digest.str();
  }

  TempDir dir;
  project::Project project;
  std::vector<std::string> warnings;
};

TEST_F(PinnedReferencesTest, PinnedImagesUseTheirDigestOthersNothing) {
  record_pin(pins_file(dir.path()), "a", pin("r.example/exp/p-a", kDigestA));
  record_pin(pins_file(dir.path()), "gone", pin("r.example/exp/p-gone", kDigestA));
  const auto refs = references();
  EXPECT_EQ(refs, (std::map<std::string, std::string>{{"a", "r.example/exp/p-a@" + kDigestA}}));
  EXPECT_TRUE(warnings.empty());
}

TEST_F(PinnedReferencesTest, APinForAnotherRepositoryIsLeftOutWithAWarning) {
  record_pin(pins_file(dir.path()), "a", pin("old.example/exp/p-a", kDigestA));
  EXPECT_TRUE(references().empty());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("now names r.example/exp/p-a"), std::string::npos) << warnings[0];
}

TEST_F(PinnedReferencesTest, ARebuiltImageKeepsItsPinWithAWarning) {
  const std::string pushed = build_in_layout("{\"built\": 1}");
  record_pin(pins_file(dir.path()), "a", pin("r.example/exp/p-a", kDigestA, pushed));
  EXPECT_EQ(references().at("a"), "r.example/exp/p-a@" + kDigestA);
  EXPECT_TRUE(warnings.empty());

  const std::string rebuilt = build_in_layout("{\"built\": 2}");
  EXPECT_EQ(references().at("a"), "r.example/exp/p-a@" + kDigestA);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("rebuilt since its last push (" + rebuilt), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("gkebuild image --push a"), std::string::npos) << warnings[0];
}

}  // namespace
}  // namespace gkebuild::publish
