#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "base/atomic_file.h"
#include "base/base64.h"
#include "base/confined_path.h"
#include "base/printable.h"
#include "base/quantity.h"
#include "base/rfc3339.h"
#include "base/source_error.h"
#include "base/suggest.h"
#include "base/untrusted_text.h"
#include "tests/common/temp_dir.h"

namespace gkebuild {
namespace {

TEST(SourceError, ShowsLineAndCaret) {
  SourceError error({"gkebuild.yaml", 2, 5}, "unknown key 'imagse'", "a: 1\nb:  imagse\n");
  EXPECT_EQ(std::string(error.what()),
            "gkebuild.yaml:2:5: error: unknown key 'imagse'\n  b:  imagse\n      ^");
}

TEST(SourceError, QuotedLineIsPrintableAndTheCaretFollowsIt) {
  SourceError error({"f.yaml", 1, 9}, "unknown key", "\x1b[2J\tkey: 1\n");
  EXPECT_EQ(std::string(error.what()), "f.yaml:1:9: error: unknown key\n  \\x1b[2J\tkey: 1\n         \t   ^");
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
  testing::TempDir temp;
  const auto dir = temp / "new";  // a folder that does not exist yet
  write_file_atomically(dir / "out.txt", "one");
  write_file_atomically(dir / "out.txt", "two");
  EXPECT_EQ(read_file(dir / "out.txt"), "two");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);
}

TEST(Rfc3339, ParsesZuluOffsetsAndFractions) {
  const auto zulu = parse_rfc3339("2024-05-01T10:00:00Z");
  const auto offset = parse_rfc3339("2024-05-01T12:00:00+02:00");
  ASSERT_TRUE(zulu && offset);
  EXPECT_EQ(*zulu, *offset);
  EXPECT_EQ(format_rfc3339_seconds(*parse_rfc3339("2024-05-01T10:00:00.999Z")), "2024-05-01T10:00:00Z");
  EXPECT_FALSE(parse_rfc3339("2024-05-01 10:00:00"));
  EXPECT_FALSE(parse_rfc3339("yesterday"));
}

TEST(Rfc3339, SortableTimestampsOrderAsTimesDo) {
  // Go trims trailing zeros, so ".5" is later than ".123456789" though it sorts first as text.
  const auto early = sortable_timestamp("2024-05-01T10:00:00.123456789Z");
  const auto late = sortable_timestamp("2024-05-01T10:00:00.5Z");
  ASSERT_TRUE(early && late);
  EXPECT_LT(*early, *late);
  EXPECT_EQ(*late, "2024-05-01T10:00:00.500000000Z");
}

TEST(Base64, RoundTripsAndRejectsGarbage) {
  for (std::string text : {"", "a", "ab", "abc", "-----BEGIN CERTIFICATE-----\n"}) {
    auto decoded = base64_decode(base64_encode(text));
    ASSERT_TRUE(decoded);
    EXPECT_EQ(*decoded, text);
  }
  EXPECT_EQ(*base64_decode("aGVs\nbG8="), "hello");
  EXPECT_FALSE(base64_decode("not base64!"));
}

TEST(Rfc3339, FormatsSecondsAndMilliseconds) {
  EXPECT_EQ(format_rfc3339_seconds(int64_t{0}), "1970-01-01T00:00:00Z");
  const auto when = *parse_rfc3339("2026-11-22T03:15:00.1239Z");
  EXPECT_EQ(format_rfc3339_milliseconds(when), "2026-11-22T03:15:00.123Z");
  EXPECT_EQ(format_rfc3339_seconds(when), "2026-11-22T03:15:00Z");
}

TEST(Quantity, FollowsTheKubernetesGrammar) {
  EXPECT_EQ(parse_quantity("500m"), 0.5);
  EXPECT_EQ(parse_quantity("2Ki"), 2048);
  EXPECT_EQ(parse_quantity("1e3"), 1000);
  EXPECT_EQ(parse_quantity("5E-1"), 0.5);
  EXPECT_EQ(parse_quantity("1E"), 1e18);  // exa, not an exponent
  EXPECT_EQ(parse_quantity(".5"), 0.5);
  EXPECT_EQ(parse_quantity("-1.5Gi"), -1.5 * 1073741824.0);
  for (const char* bad : {"", "Gi", "1.5 Gi", "1..5", "1.2.3", "1e", "1e3Gi", "1Kii", "0x10", "1ee3"})
    EXPECT_FALSE(parse_quantity(bad)) << bad;
}

mode_t mode_of(const std::filesystem::path& path) {
  struct stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

TEST(AtomicFile, SharedFilesHonourTheUmaskAndPrivateOnesAreOwnerOnly) {
  auto dir = std::filesystem::temp_directory_path() / "gkebuild-atomic-mode-test";
  std::filesystem::remove_all(dir);
  mode_t mask = ::umask(022);  // read it back unchanged: no other thread is creating files here
  ::umask(mask);
  write_file_atomically(dir / "shared", "x");
  write_file_atomically(dir / "private", "x", FileAccess::kOwnerOnly);
  EXPECT_EQ(mode_of(dir / "shared"), 0666 & ~mask);
  EXPECT_EQ(mode_of(dir / "private"), 0600u);
  std::filesystem::remove_all(dir);
}

TEST(Printable, EscapesControlCharactersAndInvalidUtf8) {
  EXPECT_EQ(printable("plain name-1.2_x"), "plain name-1.2_x");
  EXPECT_EQ(printable("\x1b[31mred\x1b]0;title\x07"), "\\x1b[31mred\\x1b]0;title\\x07");
  EXPECT_EQ(printable("\x1b[31mred\n\t\x7f"), "\\x1b[31mred\\x0a\\x09\\x7f");
  EXPECT_EQ(printable("^[a-z]\\.x$"), "^[a-z]\\.x$");
  EXPECT_EQ(printable("caf\xc3\xa9 \xe2\x9c\x93"), "caf\xc3\xa9 \xe2\x9c\x93");  // valid UTF-8 stays
  EXPECT_EQ(printable("\xc2\x9b" "2J"), "\\xc2\\x9b2J");  // U+009B, the C1 CSI
  EXPECT_EQ(printable("\x9b\xff\xc0\xaf\xed\xa0\x80"),
            "\\x9b\\xff\\xc0\\xaf\\xed\\xa0\\x80");  // lone, invalid, overlong, surrogate
  EXPECT_EQ(printable(std::string("a\0b", 3)), "a\\x00b");
}

TEST(Printable, QuotesAndWholeMessages) {
  EXPECT_EQ(in_quotes("a\nb\x1b"), "'a\\x0ab\\x1b'");
  // A message keeps its own line breaks and tabs; every other control character is escaped.
  EXPECT_EQ(printable_lines("line 1\n\tline \x1b[2J2\r\n"), "line 1\n\tline \\x1b[2J2\\x0d\n");
  EXPECT_EQ(printable_lines(printable_lines("a\x07")), "a\\x07");  // escaping twice changes nothing
}

// Issue 30: libcurl quotes a proxy-url it cannot parse whole, password and control bytes included.
TEST(UntrustedText, UserinfoIsRedactedEvenFromAUrlTooMalformedToParse) {
  EXPECT_EQ(without_userinfo("Unsupported proxy syntax in 'http://dave:s3cret@[::1'"),
            "Unsupported proxy syntax in 'http://***@[::1'");
  EXPECT_EQ(without_userinfo("see https://u:p@host/path@x and ftp://h/x"), "see https://***@host/path@x and ftp://h/x");
  // The proxy's own password, wherever the text repeats it (here without a scheme before it).
  EXPECT_EQ(without_userinfo("proxy dave:pa%24s@[x and pa$s", "http://dave:pa%24s@[x"), "proxy ***@[x and ***");
  EXPECT_EQ(untrusted_text("bad \x1b[31m http://a:b@h\n"), "bad \\x1b[31m http://***@h\n");
  EXPECT_EQ(without_userinfo("no url here: a@b"), "no url here: a@b");
}

// Issue 30: the files gkebuild keeps in .gkebuild/ are read only as regular files inside.
TEST(ConfinedFile, ReadsOnlyRegularFilesInsideTheRoot) {
  namespace fs = std::filesystem;
  testing::TempDir temp;
  temp.write("root/kept.json", "{}");
  temp.write("outside.txt", "secret");
  EXPECT_EQ(read_confined_file(temp / "root", "kept.json", 16), "{}");
  EXPECT_FALSE(read_confined_file(temp / "root", "missing.json", 16));
  auto refusal = [&](const fs::path& relative, std::size_t limit = 16) {
    try {
      read_confined_file(temp / "root", relative, limit);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("read");
  };
  fs::create_symlink(temp / "outside.txt", temp / "root" / "out.json");
  EXPECT_NE(refusal("out.json").find("leads outside"), std::string::npos);
  fs::create_symlink("kept.json", temp / "root" / "in.json");
  EXPECT_NE(refusal("in.json").find("is a symlink"), std::string::npos);
  ASSERT_EQ(::mkfifo((temp / "root" / "fifo").c_str(), 0600), 0);
  EXPECT_NE(refusal("fifo").find("is not a regular file"), std::string::npos);  // without waiting for a writer
  EXPECT_NE(refusal("kept.json", 1).find("larger than the 1 bytes"), std::string::npos);
  EXPECT_NE(refusal("../outside.txt").find("leads outside"), std::string::npos);
}

TEST(Suggest, TheSuggestionIsPrintable) {
  EXPECT_EQ(did_you_mean("imagee", {"image\x1b"}), " (did you mean 'image\\x1b'?)");
}

TEST(ConfinedPath, DotDotAbsoluteAndSymlinksCannotLeaveTheRoot) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / "gkebuild-confined-test";
  fs::remove_all(root);
  fs::create_directories(root / "sub");
  fs::create_symlink("/etc", root / "etclink");
  fs::create_symlink("../sub", root / "sub" / "inner");
  const fs::path real_root = fs::canonical(root);
  EXPECT_EQ(confined_path(root, "sub/x.j2"), real_root / "sub" / "x.j2");
  EXPECT_EQ(confined_path(root, "sub/inner/y"), real_root / "sub" / "y");  // a symlink that stays inside
  EXPECT_EQ(confined_path(root, "a/../b"), real_root / "b");
  EXPECT_FALSE(confined_path(root, "../x"));
  EXPECT_FALSE(confined_path(root, "sub/../../x"));
  EXPECT_FALSE(confined_path(root, "/etc/passwd"));
  EXPECT_FALSE(confined_path(root, "etclink/passwd"));
  EXPECT_FALSE(confined_path(root, "missing/../../x"));
  EXPECT_FALSE(confined_path(root, ""));
  EXPECT_TRUE(is_within("/a/b", "/a/b/c"));
  EXPECT_TRUE(is_within("/a/b/", "/a/b"));
  EXPECT_FALSE(is_within("/a/b", "/a/bc"));
  fs::remove_all(root);
}

TEST(TreePath, DropsDotsAndLeadingSlashesAndRefusesToClimbAboveTheRoot) {
  EXPECT_EQ(tree_path("usr/lib/x"), "usr/lib/x");
  EXPECT_EQ(tree_path("/etc//passwd"), "etc/passwd");
  EXPECT_EQ(tree_path("./a/../b/"), "b");
  EXPECT_EQ(tree_path("./"), "");
  EXPECT_EQ(tree_path("../etc/passwd"), std::nullopt);
  EXPECT_EQ(tree_path("a/../../b"), std::nullopt);
}

// Issue 30: a tree written through ConfinedTree stays beneath its root whatever its symlinks
// say, keeps them as symlinks, and never writes through one at the entry's own name.
TEST(ConfinedTree, SymlinksAreResolvedInsideTheRootAndNeverWrittenThrough) {
  namespace fs = std::filesystem;
  testing::TempDir dir;
  const fs::path root = dir / "root", outside = dir / "outside";
  write_file_atomically(outside / "victim", "victim");
  write_file_atomically(dir / "content", "content");
  {
    ConfinedTree tree(root);
    tree.make_directory("usr/lib");
    tree.make_symlink("lib", "usr/lib");                            // relative, inside
    tree.make_symlink("out", outside.string());                     // absolute: the root's own
    tree.make_symlink("up", "../../../../../../../../..");          // climbs: stops at the root
    tree.make_symlink("victim", (outside / "victim").string());
    tree.make_hard_link("lib/a", dir / "content");                  // through lib: usr/lib/a
    tree.make_hard_link("out/b", dir / "content");                  // through out: <root>/<outside>/b
    tree.make_hard_link("up" + outside.string() + "/c", dir / "content");
    tree.make_hard_link("victim", dir / "content");                 // replaces the symlink itself
    tree.make_hard_link("usr/lib/d", dir / "content");              // after a walk through a symlink
    tree.make_directory("usr/lib");                                  // a folder meets a folder
    EXPECT_THROW(tree.make_hard_link("usr/lib", dir / "content"), std::runtime_error);
    EXPECT_THROW(tree.make_directory("a/../b"), std::runtime_error);
    EXPECT_THROW(tree.make_hard_link("usr/lib/a/x", dir / "content"), std::runtime_error);  // a file on the way
  }
  EXPECT_EQ(read_file(root / "usr/lib/a"), "content");
  EXPECT_EQ(read_file(root / "usr/lib/d"), "content");
  EXPECT_EQ(read_file(root / outside.relative_path() / "b"), "content");
  EXPECT_EQ(read_file(root / outside.relative_path() / "c"), "content");
  EXPECT_EQ(fs::read_symlink(root / "out"), outside);
  EXPECT_FALSE(fs::is_symlink(root / "victim"));
  EXPECT_EQ(read_file(outside / "victim"), "victim");
  EXPECT_EQ(std::distance(fs::directory_iterator(outside), fs::directory_iterator()), 1);
}

// Issue 40: an absolute symlink met after the first component (usr/abs -> /etc) starts again at
// the root: the entry lands in <root>/etc, not in <root>/usr/etc (where a walk that forgot the
// folders above would put it) nor in the host's /etc.
TEST(ConfinedTree, AnAbsoluteSymlinkInAMiddleComponentStartsAgainAtTheRoot) {
  namespace fs = std::filesystem;
  testing::TempDir dir;
  const fs::path root = dir / "root", outside = dir / "outside";
  fs::create_directories(outside);
  write_file_atomically(dir / "content", "content");
  {
    ConfinedTree tree(root);
    tree.make_directory("etc");
    tree.make_directory("usr/lib");
    tree.make_symlink("usr/lib/abs", "/etc");
    tree.make_symlink("usr/lib/out", outside.string());
    tree.make_hard_link("usr/lib/abs/e", dir / "content");
    tree.make_hard_link("usr/lib/out/o", dir / "content");
    tree.make_directory("usr/lib/abs/made");
  }
  EXPECT_EQ(read_file(root / "etc/e"), "content");
  EXPECT_TRUE(fs::is_directory(root / "etc/made"));
  EXPECT_EQ(read_file(root / outside.relative_path() / "o"), "content");
  EXPECT_FALSE(fs::exists(root / "usr/lib/etc"));
  EXPECT_FALSE(fs::exists(root / "usr/etc"));
  EXPECT_FALSE(fs::exists(root / "usr/lib" / outside.relative_path()));
  EXPECT_TRUE(fs::is_empty(outside));
}

// Issue 40: confined_path follows a symlink whether or not its target exists; a dangling one
// that leads out is outside, as one whose target exists is.
TEST(ConfinedPath, ADanglingSymlinkOutIsOutside) {
  namespace fs = std::filesystem;
  testing::TempDir dir;
  const fs::path root = dir / "root";
  fs::create_directories(root / "sub");
  fs::create_symlink(dir / "absent", root / "gone");
  fs::create_symlink("../../absent", root / "sub/gone");
  fs::create_symlink("missing-inside", root / "inside");
  EXPECT_FALSE(confined_path(root, "gone"));
  EXPECT_FALSE(confined_path(root, "gone/x"));
  EXPECT_FALSE(confined_path(root, "sub/gone/x"));
  EXPECT_EQ(confined_path(root, "inside/x"), fs::canonical(root) / "missing-inside/x");
  EXPECT_EQ(confined_path(root, "sub/../sub/new"), fs::canonical(root) / "sub/new");
}

TEST(AtomicFile, UncommittedTemporaryIsRemoved) {
  testing::TempDir temp;
  const auto dir = temp / "new";
  {
    TemporaryFile tmp(dir);
    tmp.write("partial");
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir));
}

}  // namespace
}  // namespace gkebuild
