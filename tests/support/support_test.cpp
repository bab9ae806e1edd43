#include <gtest/gtest.h>

#include <filesystem>

#include "io/atomic_file.h"
#include "support/source_error.h"
#include "support/suggest.h"

namespace gkebuild {
namespace {

TEST(SourceError, ShowsLineAndCaret) {
  SourceError error({"gkebuild.yaml", 2, 5}, "unknown key 'imagse'", "a: 1\nb:  imagse\n");
  EXPECT_EQ(std::string(error.what()),
            "gkebuild.yaml:2:5: error: unknown key 'imagse'\n  b:  imagse\n      ^");
}

TEST(SourceError, WithoutSourceIsOneLine) {
  SourceError error({"x.j2", 3, 0}, "boom");
  EXPECT_EQ(std::string(error.what()), "x.j2:3: error: boom");
}

TEST(LineOf, HandlesCrLfAndRange) {
  EXPECT_EQ(line_of("a\r\nbc\r\n", 2), "bc");
  EXPECT_EQ(line_of("a\n", 3), "");
}

TEST(Suggest, FindsTypos) {
  std::vector<std::string> keys{"images", "experiments", "registry"};
  EXPECT_EQ(closest_match("imagse", keys), "images");
  EXPECT_EQ(did_you_mean("registy", keys), " (did you mean 'registry'?)");
  EXPECT_EQ(closest_match("zzzzzzzz", keys), std::nullopt);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
}

TEST(AtomicFile, ReplacesContentAndLeavesNoTemporary) {
  auto dir = std::filesystem::temp_directory_path() / "gkebuild-atomic-test";
  std::filesystem::remove_all(dir);
  io::write_file_atomically(dir / "out.txt", "one");
  io::write_file_atomically(dir / "out.txt", "two");
  EXPECT_EQ(io::read_file(dir / "out.txt"), "two");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);
  std::filesystem::remove_all(dir);
}

TEST(AtomicFile, UncommittedTemporaryIsRemoved) {
  auto dir = std::filesystem::temp_directory_path() / "gkebuild-atomic-test2";
  std::filesystem::remove_all(dir);
  {
    io::TemporaryFile tmp(dir);
    tmp.write("partial");
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gkebuild
