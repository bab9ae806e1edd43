#include "tests/common/test_tar.h"

#include <archive.h>
#include <archive_entry.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <stdexcept>

namespace gkebuild::testing {
namespace {

mode_t file_type(char kind) {
  switch (kind) {
    case 'd': return AE_IFDIR;
    case 'l': return AE_IFLNK;
    case 'c': return AE_IFCHR;
    case 'b': return AE_IFBLK;
    case 'p': return AE_IFIFO;
    default: return AE_IFREG;
  }
}

}  // namespace

void write_test_tar(const std::filesystem::path& out, const std::vector<TarEntry>& entries, TarFilter filter) {
  archive* a = archive_write_new();
  archive_write_set_format_pax_restricted(a);
  if (filter == TarFilter::kGzip) archive_write_add_filter_gzip(a);
  if (filter == TarFilter::kZstd) archive_write_add_filter_zstd(a);
  if (archive_write_open_filename(a, out.c_str()) != ARCHIVE_OK) {
    archive_write_free(a);
    throw std::runtime_error("cannot write the test tar " + out.string());
  }
  for (const auto& e : entries) {
    archive_entry* entry = archive_entry_new();
    archive_entry_set_pathname(entry, e.path.c_str());
    archive_entry_set_perm(entry, static_cast<mode_t>(e.mode));
    archive_entry_set_uid(entry, e.uid);
    archive_entry_set_gid(entry, e.gid);
    archive_entry_set_mtime(entry, 1700000000, 0);
    const bool file = e.kind == 'f';
    archive_entry_set_filetype(entry, file_type(e.kind));
    if (e.kind == 'l') archive_entry_set_symlink(entry, e.content_or_target.c_str());
    if (e.kind == 'h') archive_entry_set_hardlink(entry, e.content_or_target.c_str());
    if (e.kind == 'c' || e.kind == 'b') archive_entry_set_rdev(entry, makedev(1, 3));
    archive_entry_set_size(entry, file ? static_cast<la_int64_t>(e.content_or_target.size()) : 0);
    archive_write_header(a, entry);
    if (file) archive_write_data(a, e.content_or_target.data(), e.content_or_target.size());
    archive_entry_free(entry);
  }
  archive_write_close(a);
  archive_write_free(a);
}

std::vector<std::pair<std::string, std::vector<TarEntry>>> hostile_tars(const std::filesystem::path& outside) {
  std::string up;
  for (int i = 0; i < 40; ++i) up += "../";
  const std::string out = outside.string(), below_root = outside.relative_path().string();
  return {
      {"dotdot", {{up + below_root + "/dotdot", 'f', "x"}, {"a/" + up + below_root + "/dotdot-in-a", 'f', "x"}}},
      {"absolute", {{out + "/absolute", 'f', "x"}, {out + "/absolute-dir/", 'd', ""}}},
      {"symlink-then-file", {{"link", 'l', out}, {"link/file", 'f', "x"}, {"link/dir/", 'd', ""}}},
      {"symlink-up", {{"up", 'l', up}, {"up/" + below_root + "/via-up", 'f', "x"}}},
      {"symlink-chain", {{"a", 'l', "b"}, {"b", 'l', "c/../" + up}, {"c/", 'd', ""}, {"a/" + below_root + "/chained", 'f', "x"}}},
      {"folder-becomes-symlink", {{"d/", 'd', ""}, {"d", 'l', out}, {"d/file", 'f', "x"}}},
      {"symlink-victim", {{"victim", 'l', out + "/victim"}, {"victim", 'f', "overwritten"}}},
      {"hardlink-outside", {{"hard", 'h', out + "/victim"}, {"hard2", 'h', up + below_root + "/victim"}}},
      {"hardlink-through-symlink", {{"link", 'l', out}, {"hard", 'h', "link/victim"}, {"hard", 'f', "overwritten"}}},
      {"devices", {{"dev/mem", 'c', ""}, {"dev/disk", 'b', ""}, {"fifo", 'p', ""}, {out + "/device", 'c', ""}}},
  };
}

}  // namespace gkebuild::testing
